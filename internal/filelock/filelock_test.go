package filelock

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A lock held is refused without wait, and waited for with it; each open
// of the file is a holder of its own, as another process's is.
func TestLock(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no advisory locks here")
	}
	p := filepath.Join(t.TempDir(), "x.lock")
	unlock, waited, err := Lock(p, false)
	if err != nil || waited {
		t.Fatalf("a free lock: %v, waited %v", err, waited)
	}
	if _, _, err := Lock(p, false); !errors.Is(err, ErrHeld) {
		t.Fatalf("a held lock without wait: %v, want ErrHeld", err)
	}
	got := make(chan bool)
	go func() {
		u, waited, err := Lock(p, true)
		if err != nil {
			t.Error(err)
		} else {
			u()
		}
		got <- waited
	}()
	select {
	case <-got:
		t.Fatal("took a held lock")
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	if !<-got {
		t.Error("the second took the lock without saying it waited")
	}
}
