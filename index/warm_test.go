package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hone-tools/hone/tokenize"
)

// An index kept open between answers (hone serve, hone mcp) keeps the
// holders of the terms it searched and the pairs it read; what it answers
// after a write, its own or another process's, is what the index now
// holds: a file dropped, files added, pairs flushed into the table.
func TestWarmReadsFollowWrites(t *testing.T) {
	repo := t.TempDir()
	files := throttleTree()
	ix := mustBuild(t, repo, files)
	ctx := context.Background()
	throttle, rate := tokenize.Stem("throttle"), tokenize.Stem("rate")
	holders := func() []string {
		var out []string
		for _, h := range ix.Run(Search{Terms: []QueryTerm{{Stem: throttle, Weight: 1}}, Limit: 100}) {
			out = append(out, h.Entry.Path)
		}
		slices.Sort(out)
		return out
	}
	pairedIn := func() int {
		nb := related(ix, rate, 3)
		if len(nb) != 1 || nb[0].Stem != throttle {
			t.Fatalf("related to rate: %v, want throttle alone", nb)
		}
		return nb[0].Files
	}
	want := []string{"svc/api0.py", "svc/api1.py", "svc/api2.py", "svc/api3.py"}
	for range 2 { // read, then read from what was kept
		if got := holders(); !slices.Equal(got, want) {
			t.Fatalf("holders of throttle: %v, want %v", got, want)
		}
		if n := pairedIn(); n != 4 {
			t.Fatalf("throttle pairs with rate in %d files, want 4", n)
		}
	}
	ix.mu.Lock()
	kept := ix.terms[throttle] != nil && ix.terms[throttle].holders != nil && ix.pairs[rate] != nil
	ix.mu.Unlock()
	if !kept {
		t.Fatal("the index kept neither the holders of throttle nor the pairs of rate: the test reads nothing kept")
	}

	// One file dropped; two added, with enough others that the update
	// flushes them into a segment and their pairs into the table.
	if err := os.Remove(filepath.Join(repo, "svc", "api0.py")); err != nil {
		t.Fatal(err)
	}
	more := map[string]string{
		"svc/new0.py": "def throttle_rate(v):\n    return v\n",
		"svc/new1.py": "def throttle_rate(v):\n    return v\n",
	}
	for i := range flushAt + 20 {
		more[fmt.Sprintf("more/g%d.py", i)] = fmt.Sprintf("def helper%d(value):\n    return value\n", i)
	}
	writeTree(t, repo, more)
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Segments == 0 {
		t.Fatalf("the update flushed no segment (%+v): the test needs one", st)
	}
	want = []string{"svc/api1.py", "svc/api2.py", "svc/api3.py", "svc/new0.py", "svc/new1.py"}
	for range 2 {
		if got := holders(); !slices.Equal(got, want) {
			t.Errorf("holders of throttle after the update: %v, want %v", got, want)
		}
		if n := pairedIn(); n != 5 {
			t.Errorf("throttle pairs with rate in %d files after the update, want 5", n)
		}
	}
}
