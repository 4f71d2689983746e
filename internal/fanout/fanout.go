// Package fanout runs a function for each of n items side by side, a
// bounded number at a time.
package fanout

import (
	"context"
	"sync"
)

// Each calls f(i) for each i below n, each in a goroutine that holds a
// slot of sem while it runs, so that at most cap(sem) run at once; callers
// that share sem share the bound. A call that cannot take a slot before
// ctx ends is not made, and its error is ctx's. Each returns when every
// call has returned, with the error of each.
func Each(ctx context.Context, sem chan struct{}, n int, f func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	return errs
}
