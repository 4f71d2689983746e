package filelock

import (
	"context"
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
	unlock, waited, err := Lock(context.Background(), p, false)
	if err != nil || waited {
		t.Fatalf("a free lock: %v, waited %v", err, waited)
	}
	if _, _, err := Lock(context.Background(), p, false); !errors.Is(err, ErrHeld) {
		t.Fatalf("a held lock without wait: %v, want ErrHeld", err)
	}
	got := make(chan bool)
	go func() {
		u, waited, err := Lock(context.Background(), p, true)
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

// A wait for a held lock ends with its context: a caller given up, or out
// of time, is not held by a process that never lets go.
func TestLockWaitEndsWithItsContext(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no advisory locks here")
	}
	p := filepath.Join(t.TempDir(), "x.lock")
	unlock, _, err := Lock(context.Background(), p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, waited, err := Lock(ctx, p, true)
	if !errors.Is(err, context.DeadlineExceeded) || !waited {
		t.Errorf("a wait past its deadline: %v, waited %v; want the deadline's error", err, waited)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the wait took %v past a deadline of 100ms", took)
	}
}
