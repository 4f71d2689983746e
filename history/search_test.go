package history

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A log searched again is searched through its terms index, and answers
// what its first search, one pass over the log, would: the same commits,
// in the same order, with the same scores to the last bit.
func TestSimilarIndexed(t *testing.T) {
	words := []string{"throttle", "rate", "limit", "client", "request", "cache", "parse", "config",
		"upload", "retry", "order", "page", "render", "log", "path", "status", "token", "expire"}
	rng := rand.New(rand.NewPCG(1, 2))
	var commits []*Commit
	for i := range 500 {
		var msg string
		for range 1 + rng.IntN(8) {
			msg += words[rng.IntN(len(words))] + " "
		}
		c := &Commit{Hash: fmt.Sprint(i), Subject: msg, terms: messageTerms(msg)}
		if rng.IntN(5) > 0 { // some commits change no file, and are never matched
			c.Files = []string{fmt.Sprintf("f%d.go", rng.IntN(40))}
		}
		commits = append(commits, c)
	}
	tasks := []string{
		"The rate limiter lets a client through\nIt should throttle requests.",
		"uploads are not retried after the token expires",
		"render the orders page", // twice the title's words
		"nothing any commit says",
		"",
	}
	for _, task := range tasks {
		for _, top := range []int{1, 5, 1000} {
			scanned := (&Log{Commits: commits}).Similar(task, top)
			l := &Log{Commits: commits}
			l.Similar(task, top)
			indexed := l.Similar(task, top)
			if l.ti == nil {
				t.Fatal("the second search made no terms index")
			}
			if len(indexed) != len(scanned) {
				t.Fatalf("%q, top %d: %d matches indexed, %d scanned", task, top, len(indexed), len(scanned))
			}
			for i := range scanned {
				if indexed[i] != scanned[i] {
					t.Errorf("%q, top %d, match %d: indexed %+v, scanned %+v", task, top, i, indexed[i], scanned[i])
				}
			}
		}
	}
}
