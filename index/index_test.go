package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hone-tools/hone/tokenize"
)

func build(t *testing.T, files map[string]string) *Index {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Build(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func tf(ix *Index, path, word string) [NumFields]uint16 {
	id, ok := ix.Term(tokenize.Stem(word))
	if !ok {
		return [NumFields]uint16{}
	}
	return ix.Doc(path).TF(id)
}

func TestFields(t *testing.T) {
	ix := build(t, map[string]string{
		"src/session/session-manager.ts": "export function refreshSession(id: string) {\n  // refresh the session\n  return signJwt(id);\n}\n",
		"src/middleware/index.ts":        "export { throttle } from './throttle';\n",
		".env":                           "SECRET_TOKEN=hunter2\n",
	})
	got := tf(ix, "src/session/session-manager.ts", "session")
	if got[Name] != 1 || got[Dir] != 1 || got[Def] != 1 || got[Body] < 2 {
		t.Errorf("session: %v, want name 1, dir 1, def 1, body 2+", got)
	}
	if got := tf(ix, "src/session/session-manager.ts", "refreshsession"); got[Def] != 1 {
		t.Errorf("the whole identifier refreshsession: %v, want it in the definitions", got)
	}
	// an index file is named for its folder
	if got := tf(ix, "src/middleware/index.ts", "middleware"); got[Name] != 1 {
		t.Errorf("index.ts: middleware %v, want it in the name", got)
	}
	// a secret file: its name only, never its contents
	if got := tf(ix, ".env", "hunter2"); got != [NumFields]uint16{} {
		t.Errorf(".env contents indexed: %v", got)
	}
	if _, err := ix.Content(ix.Doc(".env")); err == nil {
		t.Error("Content read a secret-bearing file")
	}
	if ix.Surface(mustTerm(t, ix, "session")) != "session" {
		t.Errorf("surface of session: %q", ix.Surface(mustTerm(t, ix, "session")))
	}
}

func mustTerm(t *testing.T, ix *Index, word string) uint32 {
	id, ok := ix.Term(tokenize.Stem(word))
	if !ok {
		t.Fatalf("no term %q", word)
	}
	return id
}

func TestRun(t *testing.T) {
	ix := build(t, map[string]string{
		"throttle.ts": "export function throttle() { /* throttle requests */ }\n",
		"routes.ts":   "import { throttle } from './throttle';\napp.use(throttle());\n",
		"billing.ts":  "const taxRate = 0.2;\n",
		"README.md":   "# throttle\nthrottle throttle throttle\n",
	})
	hits := ix.Run(Search{Terms: []QueryTerm{{Stem: tokenize.Stem("throttle"), Weight: 1}}})
	var paths []string
	for _, h := range hits {
		paths = append(paths, h.Doc.Path)
	}
	if len(paths) != 3 || paths[0] != "throttle.ts" {
		t.Errorf("hits %v: want the file named for the term first, billing.ts absent", paths)
	}
	// Keep, Prior and Limit
	hits = ix.Run(Search{
		Terms: []QueryTerm{{Stem: tokenize.Stem("throttle"), Weight: 1}},
		Keep:  func(d *Doc) bool { return d.Path != "throttle.ts" },
		Prior: func(d *Doc) float64 {
			if d.Path == "README.md" {
				return 0
			}
			return 1
		},
		Limit: 5,
	})
	if len(hits) != 1 || hits[0].Doc.Path != "routes.ts" {
		t.Errorf("with Keep and Prior: %v", hits)
	}
	if hits := ix.Run(Search{Terms: []QueryTerm{{Stem: "nosuchterm", Weight: 1}}}); len(hits) != 0 {
		t.Errorf("unknown term: %d hits", len(hits))
	}
}

func TestStructure(t *testing.T) {
	ix := build(t, map[string]string{
		"src/auth/auth.ts":               "import { refreshSession } from '../session/session-manager';\nimport express from 'express';\nexport function authenticate() { refreshSession('x'); }\n",
		"src/session/session-manager.ts": "export function refreshSession(id: string) {}\n",
		"pkg/models/__init__.py":         "from .fields import Field\n",
		"pkg/models/fields.py":           "class Field:\n    pass\n",
	})
	if got := ix.Imports(ix.Doc("src/auth/auth.ts")); !slices.Equal(got, []string{"src/session/session-manager.ts"}) {
		t.Errorf("imports of auth.ts: %v", got)
	}
	if got := ix.Imports(ix.Doc("pkg/models/__init__.py")); !slices.Equal(got, []string{"pkg/models/fields.py"}) {
		t.Errorf("imports of __init__.py: %v", got)
	}
	defs := ix.Definers("refreshSession")
	if len(defs) != 1 || defs[0].Path != "src/session/session-manager.ts" {
		t.Errorf("definers of refreshSession: %v", defs)
	}
	if !ix.Exists("src/auth/") || ix.Exists("src/nope/") || !ix.Exists("pkg/models/fields.py") {
		t.Error("Exists")
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := Build(context.Background(), filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Error("missing root: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, t.TempDir(), Options{}); err == nil {
		t.Error("cancelled: no error")
	}
}
