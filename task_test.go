package hone

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hone-tools/hone/index"
)

func fixtureIndex(t testing.TB, name string) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), filepath.Join("testdata", "repos", name), index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestAnalyzeTask(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	tests := []struct {
		task string
		want []string // labels, in any order
		kind map[string]conceptKind
		not  []string
	}{
		{
			task: "fix the auth token expiry bug",
			want: []string{"auth", "token", "expiry"},
			not:  []string{"fix", "bug", "the"},
		},
		{
			task: "`refreshSession` throws when SESSION_TTL_SECONDS is unset; see src/session/session-manager.ts",
			want: []string{"refreshSession", "SESSION_TTL_SECONDS", "src/session/session-manager.ts"},
			kind: map[string]conceptKind{"refreshSession": identifier, "SESSION_TTL_SECONDS": identifier, "src/session/session-manager.ts": filePath},
		},
		{
			task: "Calling SessionManager.refresh() fails",
			want: []string{"SessionManager", "refresh"},
			kind: map[string]conceptKind{"SessionManager": identifier, "refresh": identifier},
		},
		{
			task: "add rate limiting to the API endpoints",
			want: []string{"rate limiting", "api", "endpoints"},
			not:  []string{"rate", "limiting", "add"},
		},
		{
			task: "修复身份验证令牌过期错误",
			want: []string{"authentication", "token", "expiry", "error"},
			not:  []string{"fix"},
		},
	}
	for _, tt := range tests {
		cs := analyzeTask(tt.task, ix)
		labels := map[string]*concept{}
		for _, c := range cs {
			labels[c.label] = c
			if c.weight <= 0 || c.weight > 1 {
				t.Errorf("%q: %s weighs %.2f, want (0, 1]", tt.task, c.label, c.weight)
			}
		}
		for _, w := range tt.want {
			c, ok := labels[w]
			if !ok {
				var got []string
				for l := range labels {
					got = append(got, l)
				}
				t.Errorf("%q: no concept %q in %q", tt.task, w, got)
				continue
			}
			if k, ok := tt.kind[w]; ok && c.kind != k {
				t.Errorf("%q: %s is a %s, want %s", tt.task, w, c.kind, k)
			}
		}
		for _, w := range tt.not {
			if _, ok := labels[w]; ok {
				t.Errorf("%q: %q should not be a concept", tt.task, w)
			}
		}
	}
}

func TestAnalyzeTaskWeights(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	cs := analyzeTask("the refreshSession function and the token", ix)
	var ident, word *concept
	for _, c := range cs {
		switch c.label {
		case "refreshSession":
			ident = c
		case "token":
			word = c
		}
	}
	if ident == nil || word == nil {
		t.Fatalf("concepts %v", cs)
	}
	if ident.weight <= word.weight {
		t.Errorf("identifier weighs %.2f, prose word %.2f: a named identifier must weigh more", ident.weight, word.weight)
	}
	if cs[0] != ident {
		t.Errorf("concepts not most important first: %s leads", cs[0].label)
	}
}

func TestMentionsTests(t *testing.T) {
	for task, want := range map[string]bool{
		"the expiry tests fail": true, "add a unit test": true, "测试失败": true,
		"fix the token expiry": false, "latest contest results": false,
	} {
		if got := mentionsTests(task); got != want {
			t.Errorf("mentionsTests(%q) = %v", task, got)
		}
	}
}

func TestPhraseStems(t *testing.T) {
	if got := phraseStems("sign in"); !slices.Equal(got, []string{"signin"}) {
		t.Errorf("sign in: %v", got)
	}
	if got := phraseStems("access token"); !slices.Equal(got, []string{"access", "token"}) {
		t.Errorf("access token: %v", got)
	}
}

func FuzzAnalyzeTask(f *testing.F) {
	ix := fixtureIndex(f, "auth-expiry")
	f.Add("fix the auth token expiry bug")
	f.Add("为API端点添加速率限制")
	f.Add("Traceback (most recent call last):\n  File \"a/b.py\", line 3, in f\n    x.y()\nValueError: bad `thing`")
	f.Add("`a.b.c()` src/x.ts ``")
	f.Fuzz(func(t *testing.T, task string) {
		for _, c := range analyzeTask(task, ix) {
			if len(c.alts) == 0 || c.weight < 0 || c.weight > 1 {
				t.Fatalf("bad concept %+v", c)
			}
		}
	})
}
