package tokenize

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// texts returns the Text of each token, marking whole identifiers with '*'.
func texts(toks []Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
		if t.Whole {
			out[i] = "*" + t.Text
		}
	}
	return out
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want string // space-separated; '*' marks Whole tokens
	}{
		{"", ""},
		{"hello world", "hello world"},
		{"The Quick brown", "the quick brown"},
		// camelCase and PascalCase
		{"refreshToken", "refresh token *refreshtoken"},
		{"RefreshToken", "refresh token *refreshtoken"},
		{"getUserName", "get user name *getusername"},
		// acronyms
		{"parseHTTPRequest", "parse http request *parsehttprequest"},
		{"XMLHttpRequest", "xml http request *xmlhttprequest"},
		{"HTTPSConnection", "https connection *httpsconnection"},
		{"userID", "user id *userid"},
		{"getIDs", "get ids *getids"},
		{"URLsFor", "urls for *urlsfor"},
		// A version keeps with its acronym, as lower-case code writes it.
		{"IPv6", "ipv6"},
		{"EnableIPv6", "enable ipv6 *enableipv6"},
		{"IPv4Address", "ipv4 address *ipv4address"},
		{"useTLSv1Only", "use tlsv1 only *usetlsv1only"},
		{"IPvFoo", "pv foo *ipvfoo"},
		{"HTML", "html"},
		{"ASet", "set *aset"},
		// digits
		{"getUserID2", "get user id2 *getuserid2"},
		{"utf8Decode", "utf8 decode *utf8decode"},
		{"base64Encode", "base64 encode *base64encode"},
		{"Python3Parser", "python3 parser *python3parser"},
		{"md5sum", "md5sum"},
		{"i18n", "i18n"},
		{"404NotFound", "not found *404notfound"},
		{"x = 1234 + 5.6", ""},
		{"0xFF 0x1f2e 0x", ""},
		{"3f2a9c1d8e7b", ""},
		// snake, screaming snake, dunder, $
		{"max_retry_count", "max retry count *maxretrycount"},
		{"MAX_RETRY_COUNT", "max retry count *maxretrycount"},
		{"__init__", "init"},
		{"_private_name", "private name *privatename"},
		{"$scope.user_id", "scope user id *userid"},
		{"x_offset", "offset *xoffset"},
		// kebab only inside identifiers
		{"session-manager", "session manager *sessionmanager"},
		{"a - b", ""},
		{"--verbose-mode", "verbose mode *verbosemode"},
		{"foo--bar", "foo bar"},
		{"utf-8", "utf *utf8"},
		{"well-known", "well known *wellknown"},
		{"end-", "end"},
		// dotted paths and paths
		{"shop.db.models", "shop db models"},
		{"Class.method", "class method"},
		{"os.path.join()", "os path join"},
		{"src/auth/session-manager.ts", "src auth session manager *sessionmanager ts"},
		{`C:\Users\dev\app_config.py`, "users dev app config *appconfig py"},
		{"std::vector<int>", "std vector int"},
		// prose
		{"Fix the token-expiry bug, please!", "fix the token expiry *tokenexpiry bug please"},
		{"user's", "user"},
		// CJK
		{"修复身份验证令牌过期错误", "修复身份验证令牌过期错误"},
		{"为API端点添加速率限制", "为 api 端点添加速率限制"},
		{"中文，标点。分开", "中文 标点 分开"},
		{"用户Name", "用户 name"},
		{"ログイン処理", "ログイン処理"},
		{"로그인 오류", "로그인 오류"},
		// other scripts
		{"ПриветМир", "привет мир *приветмир"},
		{"naïve café", "naïve café"},
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"},
		// emojis and symbols
		{"🚀 deploy 🔥fast🔥", "deploy fast"},
		{"a→b ≥ c", ""},
		// invalid UTF-8
		{"bad\xffbyte", "bad byte"},
		{"\xc3\x28ok\xe2\x82", "ok"},
		{"\xff\xfe\xfd", ""},
	}
	for _, tt := range tests {
		got := strings.Join(texts(tokens(tt.in)), " ")
		if got != tt.want {
			t.Errorf("tokens(%q)\n got: %s\nwant: %s", tt.in, got, tt.want)
		}
	}
}

func TestPosAndStem(t *testing.T) {
	in := "x := cfg.parseHTTPRequest(expiredTokens) // 过期"
	want := []Token{
		{Text: "cfg", Stem: "cfg", Pos: 5},
		{Text: "parse", Stem: "pars", Pos: 9},
		{Text: "http", Stem: "http", Pos: 9},
		{Text: "request", Stem: "request", Pos: 9},
		{Text: "parsehttprequest", Stem: "parsehttprequest", Whole: true, Pos: 9},
		{Text: "expired", Stem: "expir", Pos: 26},
		{Text: "tokens", Stem: "token", Pos: 26},
		{Text: "expiredtokens", Stem: "expiredtoken", Whole: true, Pos: 26},
		{Text: "过期", Stem: "过期", Pos: 44},
	}
	got := tokens(in)
	if len(got) != len(want) {
		t.Fatalf("tokens(%q) = %+v", in, got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("token %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestStemConsistent(t *testing.T) {
	// The Kelvin sign lowers to ASCII 'k'; both spellings must share a stem.
	toks := tokens("\u212Aeepings keepings")
	if len(toks) != 2 || toks[0] != (Token{Text: "keepings", Stem: "keep", Pos: 0}) || toks[1].Stem != "keep" {
		t.Errorf("Tokens = %+v", toks)
	}
}

func TestEachMatchesTokens(t *testing.T) {
	in := "func (s *SessionManager) RefreshToken(ctx context.Context) error"
	var got []Token
	Each(in, func(t Token) { got = append(got, t) })
	want := tokens(in)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Each = %v\nTokens = %v", got, want)
	}
}

func TestStem(t *testing.T) {
	tests := map[string]string{
		"running":        "run",
		"expired":        "expir",
		"expiry":         "expiri",
		"authentication": "authent",
		"tokens":         "token",
		"caches":         "cach",
		"caching":        "cach",
		"is":             "is",
		"id2":            "id2",
		"ab":             "ab",
		"":               "",
		"用户":             "用户",
		"café":           "café",
		"привет":         "привет",
	}
	for in, want := range tests {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
		if got := Stem(in); got != want { // cached
			t.Errorf("cached Stem(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("abc", 40) + "ing"
	if got := Stem(long); got != strings.Repeat("abc", 40) {
		t.Errorf("Stem(long) = %q", got)
	}
}

func TestIsStopWord(t *testing.T) {
	for _, w := range []string{"the", "a", "of", "and", "is", "to", "in", "for", "with", "this", "that", "it", "be",
		"func", "function", "def", "return", "var", "let", "const", "import", "from", "export", "package",
		"self", "true", "false", "null", "nil", "none", "new", "if", "else", "while", "public", "private", "static", "void"} {
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false", w)
		}
	}
	for _, w := range []string{"class", "type", "interface", "struct", "token", "error", "string", "int",
		"async", "cache", "user", "http", "default", "The", ""} {
		if IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = true", w)
		}
	}
	for _, w := range stopList {
		if w != strings.ToLower(strings.TrimSpace(w)) || w == "" {
			t.Errorf("bad stop word %q", w)
		}
	}
}

func TestIsNameWord(t *testing.T) {
	for _, w := range stopList {
		if IsNameWord(w) != (w == "import" || w == "include" || w == "export") {
			t.Errorf("IsNameWord(%q) = %v", w, IsNameWord(w))
		}
	}
	// a name word is a stop word everywhere else.
	for _, w := range []string{"import", "include", "export"} {
		if !IsStopWord(w) || !IsNameWord(w) {
			t.Errorf("%q: IsStopWord %v, IsNameWord %v; want both", w, IsStopWord(w), IsNameWord(w))
		}
	}
	for _, w := range []string{"imports", "Import", "package", "class", ""} {
		if IsNameWord(w) {
			t.Errorf("IsNameWord(%q) = true", w)
		}
	}
}

func TestCacheBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < shardCount*shardMax*2; i++ {
		fmt.Fprintf(&b, "w%xz ", i)
	}
	n := 0
	Each(b.String(), func(Token) { n++ })
	if n == 0 {
		t.Fatal("no tokens")
	}
	total := 0
	for i := range shards {
		l := cacheLen(i)
		if l > shardMax {
			t.Errorf("shard %d has %d entries", i, l)
		}
		total += l
	}
	if total > shardCount*shardMax {
		t.Errorf("cache holds %d entries", total)
	}
}

func TestConcurrent(t *testing.T) {
	src := sampleCode()
	want := tokens(src)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 5; k++ {
				got := tokens(src)
				if len(got) != len(want) {
					t.Errorf("got %d tokens, want %d", len(got), len(want))
					return
				}
				for i := range got {
					if got[i] != want[i] {
						t.Errorf("token %d = %+v, want %+v", i, got[i], want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestNoAllocs(t *testing.T) {
	src := sampleCode()
	Each(src, func(Token) {}) // warm the cache
	n := 0
	allocs := testing.AllocsPerRun(10, func() {
		Each(src, func(Token) { n++ })
	})
	if allocs > 0 {
		t.Errorf("Each allocates %.0f times per run over %d bytes", allocs, len(src))
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"", "parseHTTPRequest", "getUserID2 session-manager", "修复身份验证令牌过期错误",
		"ПриветМир", "\xff\xfe", "🚀x", "0xFF", "a-b-c_d$e", "İstanbul ǅemal", "ᾼ ß ẞ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prev := 0
		Each(s, func(tk Token) {
			if tk.Text == "" || tk.Stem == "" {
				t.Fatalf("empty token %+v in %q", tk, s)
			}
			if !utf8.ValidString(tk.Text) || !utf8.ValidString(tk.Stem) {
				t.Fatalf("invalid UTF-8 token %+v in %q", tk, s)
			}
			if strings.ToLower(tk.Text) != tk.Text {
				t.Fatalf("token %q is not lower case (in %q)", tk.Text, s)
			}
			if tk.Pos < 0 || tk.Pos >= len(s) {
				t.Fatalf("token %+v: Pos out of range for %q", tk, s)
			}
			if tk.Pos < prev {
				t.Fatalf("token %+v: Pos goes backwards in %q", tk, s)
			}
			prev = tk.Pos
		})
	})
}

func ExampleEach() {
	Each("cfg.parseHTTPRequest(user_id) // 过期", func(t Token) {
		fmt.Println(t.Text, t.Stem, t.Whole, t.Pos)
	})
	// Output:
	// cfg cfg false 0
	// parse pars false 4
	// http http false 4
	// request request false 4
	// parsehttprequest parsehttprequest true 4
	// user user false 21
	// id id false 21
	// userid userid true 21
	// 过期 过期 false 33
}

const goSnippet = `package auth

import (
	"context"
	"errors"
	"time"
)

// ErrTokenExpired is returned when a refresh token has expired.
var ErrTokenExpired = errors.New("auth: token expired")

type SessionManager struct {
	store    SessionStore
	ttl      time.Duration
	maxRetry int
}

func (m *SessionManager) RefreshToken(ctx context.Context, userID string) (*Token, error) {
	sess, err := m.store.Load(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", userID, err)
	}
	if time.Since(sess.IssuedAt) > m.ttl {
		return nil, ErrTokenExpired
	}
	for i := 0; i < m.maxRetry; i++ {
		tok, err := m.issue(ctx, sess)
		if err == nil {
			return tok, nil
		}
	}
	return nil, errors.New("retry budget exhausted")
}
`

const pySnippet = `from shop.db import models
from shop.utils import timezone


class RateLimiter(models.Model):
    """Sliding-window rate limiter backed by the cache."""

    max_requests = models.IntegerField(default=100)
    window_seconds = models.IntegerField(default=60)

    def is_allowed(self, client_ip: str) -> bool:
        key = f"ratelimit:{client_ip}"
        count = cache.get(key, 0)
        if count >= self.max_requests:
            logger.warning("rate limit exceeded for %s", client_ip)
            return False
        cache.set(key, count + 1, timeout=self.window_seconds)
        return True
`

const tsSnippet = `import { useState, useEffect } from "react";
import type { HTTPClient } from "../api/http-client";

export interface PaginationOptions {
  pageSize: number;
  cursor?: string;
}

export async function fetchUserProfiles(client: HTTPClient, opts: PaginationOptions): Promise<UserProfile[]> {
  const res = await client.get<UserProfile[]>("/api/v2/users", { params: { limit: opts.pageSize, cursor: opts.cursor } });
  if (res.status !== 200) {
    throw new Error(` + "`" + `failed to fetch users: ${res.statusText}` + "`" + `);
  }
  return res.data.map((u) => ({ ...u, displayName: u.firstName + " " + u.lastName }));
}
`

func sampleCode() string {
	return goSnippet + pySnippet + tsSnippet + "// 修复身份验证令牌过期错误\n"
}

// benchCorpus returns about 1 MB of realistic source: Go from GOROOT (as
// "go env GOROOT" names it) when available, mixed with Python and
// TypeScript samples.
func benchCorpus() string {
	var b strings.Builder
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	dir := filepath.Join(strings.TrimSpace(string(goroot)), "src", "net", "http")
	if ents, rerr := os.ReadDir(dir); err == nil && rerr == nil {
		for _, e := range ents {
			if b.Len() > 600<<10 {
				break
			}
			if strings.HasSuffix(e.Name(), ".go") {
				if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
					b.Write(data)
				}
			}
		}
	}
	for b.Len() < 1<<20 {
		b.WriteString(sampleCode())
	}
	return b.String()
}

func BenchmarkTokens(b *testing.B) {
	src := benchCorpus()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		n := 0
		Each(src, func(Token) { n++ })
	}
}

func BenchmarkTokensSlice(b *testing.B) {
	src := benchCorpus()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		_ = tokens(src)
	}
}

func BenchmarkTokensParallel(b *testing.B) {
	src := benchCorpus()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n := 0
			Each(src, func(Token) { n++ })
		}
	})
}

// tokens lists the tokens of text, in order.
func tokens(text string) []Token {
	var toks []Token
	Each(text, func(t Token) { toks = append(toks, t) })
	return toks
}

// cacheLen counts the stems cached in shard i.
func cacheLen(i int) int {
	sh := &shards[i]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	n := len(sh.dirty)
	if ro := sh.ro.Load(); ro != nil {
		n += len(*ro)
	}
	return n
}

func TestStopFlag(t *testing.T) {
	text := "the And of getTheValue in_the_list not is " + strings.Repeat("过期", 40) + " " + benchCorpus()
	n := 0
	Each(text, func(tok Token) {
		if tok.Stop != IsStopWord(tok.Text) {
			t.Errorf("%q: Stop %v, IsStopWord %v", tok.Text, tok.Stop, IsStopWord(tok.Text))
		}
		if tok.Stop {
			n++
		}
	})
	if n == 0 {
		t.Error("no stop word flagged")
	}
}

// TestNearCacheSameTokens: a text tokenized through a near cache gives
// the tokens it gives without one, whatever the cache held before: words
// that share a slot, long words, CJK runs, and texts after other texts.
func TestNearCacheSameTokens(t *testing.T) {
	collect := func(text string, withNear bool) []Token {
		var out []Token
		each(text, func(tk Token) { out = append(out, tk) }, withNear)
		return out
	}
	var words []string
	for i := range 5000 {
		words = append(words, fmt.Sprintf("word%dx", i), fmt.Sprintf("HTTPServer%d_getValue", i%97))
	}
	texts := []string{
		benchCorpus()[:200_000],
		strings.Join(words, " "),
		strings.Repeat("日本語のテキスト parseURL ", 200),
		strings.Repeat("a", MaxLen+5) + " " + strings.Repeat("reallyLongIdentifierName", 10) + " short",
	}
	for i, text := range texts {
		if got, want := collect(text, true), collect(text, false); !slices.Equal(got, want) {
			t.Errorf("text %d: %d tokens through the near cache, %d without; they differ", i, len(got), len(want))
		}
	}
}

// FuzzNearCache: any text gives the same tokens through a near cache as
// without one.
func FuzzNearCache(f *testing.F) {
	for _, s := range []string{"parseHTTPRequest getUserID2", "修复身份验证令牌过期错误 parseURL", "\xff\xfe word word", "ᾼ ß ẞ İstanbul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var with, without []Token
		each(s, func(tk Token) { with = append(with, tk) }, true)
		each(s, func(tk Token) { without = append(without, tk) }, false)
		if !slices.Equal(with, without) {
			t.Errorf("%q: %v through the near cache, %v without", s, with, without)
		}
	})
}

// EachShort gives Each's tokens, line after line of a file.
func TestEachShortIsEach(t *testing.T) {
	for _, line := range strings.Split(benchCorpus()[:50_000], "\n") {
		var short, each []Token
		EachShort(line, func(tk Token) { short = append(short, tk) })
		Each(line, func(tk Token) { each = append(each, tk) })
		if !slices.Equal(short, each) {
			t.Fatalf("%q: EachShort %v, Each %v", line, short, each)
		}
	}
}
