package fanout

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	tests := []struct {
		name string
		par  int
		n    int
	}{
		{"none", 2, 0},
		{"one at a time", 1, 5},
		{"more slots than items", 8, 3},
		{"bounded", 3, 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var running, most atomic.Int32
			done := make([]bool, tt.n)
			errs := Each(context.Background(), make(chan struct{}, tt.par), tt.n, func(i int) error {
				now := running.Add(1)
				for {
					m := most.Load()
					if now <= m || most.CompareAndSwap(m, now) {
						break
					}
				}
				defer running.Add(-1)
				done[i] = true
				if i%2 == 1 {
					return errors.New("odd")
				}
				return nil
			})
			if len(errs) != tt.n {
				t.Fatalf("%d errors for %d items", len(errs), tt.n)
			}
			for i := range tt.n {
				if !done[i] {
					t.Errorf("item %d not run", i)
				}
				if (errs[i] != nil) != (i%2 == 1) {
					t.Errorf("item %d: error %v", i, errs[i])
				}
			}
			if int(most.Load()) > tt.par {
				t.Errorf("%d ran at once, over %d", most.Load(), tt.par)
			}
		})
	}
}

// A call that cannot get a slot before its context ends is not made.
func TestEachCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sem := make(chan struct{}, 1)
	sem <- struct{}{} // the only slot, held elsewhere
	var ran atomic.Int32
	errs := Each(ctx, sem, 3, func(int) error { ran.Add(1); return nil })
	if ran.Load() != 0 {
		t.Errorf("%d calls made after the context ended", ran.Load())
	}
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("item %d: %v, want the context's error", i, err)
		}
	}
}
