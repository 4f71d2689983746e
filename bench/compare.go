package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
)

// A Change is one instance whose gold rank differs between two runs: the
// rank of its last gold file, 0 when one was never ranked.
type Change struct {
	ID       string
	Old, New int
}

// Compare sets two runs' rows side by side, over the instances both hold:
// how many put all gold files within each k of ks in each run, and the
// instances whose gold rank moved, those that gained the most first.
func Compare(old, new []Row, ks []int) (oldAt, newAt []int, n int, changes []Change) {
	byID := map[string]Row{}
	for _, r := range old {
		byID[r.ID] = r
	}
	oldAt, newAt = make([]int, len(ks)), make([]int, len(ks))
	for _, b := range new {
		a, ok := byID[b.ID]
		if !ok {
			continue
		}
		n++
		ra, rb := worstRank(a), worstRank(b)
		for i, k := range ks {
			if ra <= k {
				oldAt[i]++
			}
			if rb <= k {
				newAt[i]++
			}
		}
		if ra != rb {
			changes = append(changes, Change{ID: b.ID, Old: shownRank(ra), New: shownRank(rb)})
		}
	}
	sort.SliceStable(changes, func(i, j int) bool {
		return gain(changes[i]) > gain(changes[j])
	})
	return oldAt, newAt, n, changes
}

// shownRank is worstRank as rows write it: 0 when a gold file is missing.
func shownRank(r int) int {
	if r == math.MaxInt {
		return 0
	}
	return r
}

// gain orders changes: a file found counts as a rise from past the end.
func gain(c Change) float64 {
	inv := func(r int) float64 {
		if r == 0 {
			return 0
		}
		return 1 / float64(r)
	}
	return inv(c.New) - inv(c.Old)
}

// PrintCompare writes Compare's figures, and the moved instances.
func PrintCompare(w io.Writer, old, new []Row) {
	ks := []int{1, 3, 5, 10}
	oldAt, newAt, n, changes := Compare(old, new, ks)
	if n == 0 {
		fmt.Fprintln(w, "no instance in both runs")
		return
	}
	for i, k := range ks {
		fmt.Fprintf(w, "Acc@%-2d %5.1f -> %5.1f  (%+d of %d)\n", k, 100*float64(oldAt[i])/float64(n), 100*float64(newAt[i])/float64(n), newAt[i]-oldAt[i], n)
	}
	if len(changes) > 0 {
		fmt.Fprintf(w, "\n%d instances moved (gold rank, 0: not ranked):\n", len(changes))
	}
	for _, c := range changes {
		fmt.Fprintf(w, "  %-40s %4d -> %d\n", c.ID, c.Old, c.New)
	}
}
