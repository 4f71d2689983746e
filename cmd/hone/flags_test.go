package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestEmptyFlagValue holds that a flag set to nothing is a usage error in
// every command, whatever the flag: an empty --index-dir once fell back to
// the user's cache without a word.
func TestEmptyFlagValue(t *testing.T) {
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"retrieve", "--index-dir", "", "fix the bug"}, "index-dir"},
		{[]string{"retrieve", "--repo", "", "fix the bug"}, "repo"},
		{[]string{"retrieve", "--task-file", ""}, "task-file"},
		{[]string{"retrieve", "--include", "", "fix the bug"}, "include"},
		{[]string{"retrieve", "--include", "*.go", "--exclude=", "fix the bug"}, "exclude"},
		{[]string{"retrieve", "--format", "", "fix the bug"}, "format"},
		{[]string{"retrieve", "--budget", "", "fix the bug"}, "budget"},
		{[]string{"index", "--index-dir", ""}, "index-dir"},
		{[]string{"index", "--repo="}, "repo"},
		{[]string{"status", "--repo", ""}, "repo"},
		{[]string{"status", "--index-dir", ""}, "index-dir"},
		{[]string{"mcp", "--log-file", ""}, "log-file"},
		{[]string{"mcp", "--repo", ""}, "repo"},
		{[]string{"bench", "--data", ""}, "data"},
		{[]string{"bench", "index", "--git-dir", ""}, "git-dir"},
		{[]string{"bench", "mine", "--rev", ""}, "rev"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tt.args, strings.NewReader(""), &stdout, &stderr)
		want := "hone: --" + tt.flag + " needs a value: "
		if code != 2 || !strings.HasPrefix(stderr.String(), want) || strings.Count(stderr.String(), "\n") != 1 || stdout.Len() > 0 {
			t.Errorf("hone %q: exit %d, stdout %q, stderr %q; want exit 2 and one line %q…", tt.args, code, stdout.String(), stderr.String(), want)
		}
	}
}

// TestFlagHelpUnwrapped holds that the check of empty values leaves the
// help as it was: each flag with its type and its default.
func TestFlagHelpUnwrapped(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"retrieve", "-h"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("retrieve -h: exit %d, %s", code, stderr.String())
	}
	for _, want := range []string{"-format string", `(default "text")`, "-budget tokens", "-index-dir string", "-include value"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("retrieve -h lacks %q:\n%s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String(), "panic") {
		t.Errorf("retrieve -h:\n%s", stdout.String())
	}
}

// A count of tokens is written as people write one: 8000, or 8k.
func TestParseTokens(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"8000", 8000, true},
		{" 8000 ", 8000, true},
		{"8k", 8000, true},
		{"8K", 8000, true},
		{"1.5k", 1500, true},
		{"0.5k", 500, true},
		{"16k", 16000, true},
		{"-5", -5, true}, // a number: its command says how few is too few
		{"", 0, false},
		{"k", 0, false},
		{".k", 0, false},
		{"8kk", 0, false},
		{"8kb", 0, false},
		{"1.2345k", 0, false},
		{"1e3k", 0, false},
		{"-8k", 0, false},
		{"1.2.3k", 0, false},
		{"eight", 0, false},
		{"99999999999k", 0, false},
	} {
		got, err := parseTokens(tt.in)
		if (err == nil) != tt.ok || tt.ok && got != tt.want {
			t.Errorf("parseTokens(%q) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzParseTokens(f *testing.F) {
	for _, s := range []string{"8000", "8k", "1.5k", "", "k", "1e3k", "99999999999k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseTokens(s)
		if err != nil {
			return
		}
		// A count read is written again the same way: as itself, or in
		// thousands.
		if m, err2 := parseTokens(strconv.Itoa(n)); err2 != nil || m != n {
			t.Fatalf("parseTokens(%q) = %d, but %d reads as %d, %v", s, n, n, m, err2)
		}
	})
}
