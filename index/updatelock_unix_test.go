//go:build unix

package index

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hone-tools/hone/internal/filelock"
)

// An update that finds another updating the same index says that it
// waits, then goes on once the other is done; a deadline ends the wait.
func TestUpdateSaysItWaits(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n"})
	var mu sync.Mutex
	var notices []string
	ctx := context.Background()
	ix, err := Open(ctx, repo, Options{Dir: t.TempDir(), Notice: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		notices = append(notices, s)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	unlock, _, err := filelock.Lock(ctx, ix.Path+".lock", false)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := ix.Update(short, nil); err == nil {
		t.Error("an update held by another's lock past its deadline did not fail")
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		unlock()
	}()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notices) == 0 || !strings.Contains(notices[0], "waiting for another process that updates the index of") {
		t.Errorf("notices %q: want one that says the update waits", notices)
	}
	if ix.Doc("a.go") == nil {
		t.Error("a.go is not indexed after the wait")
	}
}
