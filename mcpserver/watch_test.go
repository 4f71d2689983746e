package mcpserver

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hone-tools/hone/internal/watch"
)

// Every call sees the files as they are, edited a moment before; a call
// after no change walks nothing, where the server can watch.
func TestCallsSeeEdits(t *testing.T) {
	repo := t.TempDir()
	put := func(p, text string) {
		t.Helper()
		abs := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("src/alpha.go", "package src\n\nfunc Alpha() {}\n")
	put("README.md", "A fixture.\n")
	walks := 0
	srv, err := New(repo, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	srv.pool.OnWalk(func(string) { walks++ })
	cs := connectServer(t, srv)
	found := func(query string) []string {
		t.Helper()
		out, _ := searchCode(t, cs, query)
		var paths []string
		for _, h := range out.Hits {
			paths = append(paths, h.Path)
		}
		return paths
	}
	if got := found("alpha"); !slices.Contains(got, "src/alpha.go") {
		t.Fatalf("alpha: %v", got)
	}
	// The folders the first walk watched may have changed before their
	// watches: the next call walks once more.
	found("alpha")
	settled := walks
	if got := found("alpha"); !slices.Contains(got, "src/alpha.go") {
		t.Fatalf("alpha: %v", got)
	}
	if watch.Supported && walks != settled {
		t.Errorf("a call walked the repository though no file changed (%d walks, then %d)", settled, walks)
	}
	if !watch.Supported && walks != settled+1 {
		t.Errorf("without watching, every call must walk (%d walks, then %d)", settled, walks)
	}

	for _, step := range []struct {
		name  string
		edit  func()
		query string
		want  string // path found; "" for none
	}{
		{"a new file", func() { put("src/zebra.go", "package src\n\nfunc Zebrafish() {}\n") }, "zebrafish", "src/zebra.go"},
		{"an edited file", func() { put("src/alpha.go", "package src\n\nfunc Quokka() {}\n") }, "quokka", "src/alpha.go"},
		{"a deleted file", func() { os.Remove(filepath.Join(repo, "src", "zebra.go")) }, "zebrafish", ""},
		{"a file in a new folder", func() { put("src/deep/wombat.go", "package deep\n\nfunc Wombat() {}\n") }, "wombat", "src/deep/wombat.go"},
		{"another file in that folder", func() { put("src/deep/numbat.go", "package deep\n\nfunc Numbat() {}\n") }, "numbat", "src/deep/numbat.go"},
		{"a renamed folder", func() { os.Rename(filepath.Join(repo, "src", "deep"), filepath.Join(repo, "src", "shallow")) }, "wombat", "src/shallow/wombat.go"},
		{"a file in the renamed folder", func() { put("src/shallow/bilby.go", "package deep\n\nfunc Bilby() {}\n") }, "bilby", "src/shallow/bilby.go"},
	} {
		step.edit()
		got := found(step.query)
		if step.want == "" && len(got) > 0 || step.want != "" && !slices.Contains(got, step.want) {
			t.Errorf("%s: %q found %v, want %q", step.name, step.query, got, step.want)
		}
	}
	// Settled again: no walk.
	found("alpha")
	settled = walks
	found("quokka")
	if watch.Supported && walks != settled {
		t.Errorf("a call walked the repository though no file changed since the last")
	}
}
