package retrieve

import (
	"maps"
	"math"
	"slices"

	"github.com/hone-tools/hone/index"
)

// Graph proximity: a personalized PageRank, as Aider's repository map has
// it, over the files of a cycle and the relevant files, seeded by the
// relevant files. Edges run along calls (a file calling a definition that
// at most a few files define) and, weaker, imports. A file near the
// relevant ones in the code's own structure is likelier to matter, even
// when its words do not say so.
const (
	callEdge    = 1.0
	importEdge  = 0.3
	restart     = 0.25 // the walk's chance of jumping back to a seed
	rankRounds  = 20
	graphWeight = 0.35 // how much proximity counts in the relevance
)

// proximity returns, for every non-seed file among docs, its closeness to
// the seeds in 0..1 (1 for the closest), scaled by the seeds' relevance.
func proximity(ix *index.Index, docs []*index.Doc, seeds map[string]float64) map[string]float64 {
	if len(seeds) == 0 {
		return nil
	}
	nodes := map[string]int{}
	var list []*index.Doc
	addNode := func(d *index.Doc) {
		if d == nil {
			return
		}
		if _, ok := nodes[d.Path]; !ok {
			nodes[d.Path] = len(list)
			list = append(list, d)
		}
	}
	// The seeds in path order: the nodes' order, and with it the order of
	// every sum below, is the same from run to run, as the map's is not.
	seedPaths := slices.Sorted(maps.Keys(seeds))
	for _, p := range seedPaths {
		addNode(ix.Doc(p))
	}
	for _, d := range docs {
		addNode(d)
	}
	n := len(list)
	adj := make([]map[int]float64, n)
	for i := range adj {
		adj[i] = map[int]float64{}
	}
	link := func(a, b int, w float64) {
		if a != b {
			adj[a][b] += w
			adj[b][a] += w
		}
	}
	for i, d := range list {
		for _, e := range ix.Edges(d) {
			j, ok := nodes[e.To]
			if !ok {
				continue
			}
			if e.Kind == "import" {
				link(i, j, importEdge)
			} else {
				link(i, j, callEdge)
			}
		}
	}
	// Edges saturate: many calls between two files are one strong tie. A
	// node's degree is summed in the order of its neighbours.
	deg := make([]float64, n)
	for i := range adj {
		for _, j := range slices.Sorted(maps.Keys(adj[i])) {
			adj[i][j] = math.Min(adj[i][j], 2)
			deg[i] += adj[i][j]
		}
	}
	p0 := make([]float64, n)
	var total, top float64
	for _, path := range seedPaths {
		r := seeds[path]
		if i, ok := nodes[path]; ok {
			p0[i] = r
			total += r
			top = math.Max(top, r)
		}
	}
	if total == 0 {
		return nil
	}
	for i := range p0 {
		p0[i] /= total
	}
	p := append([]float64(nil), p0...)
	for round := 0; round < rankRounds; round++ {
		next := make([]float64, n)
		for i := range next {
			next[i] = restart * p0[i]
		}
		for i, pi := range p {
			if pi == 0 {
				continue
			}
			if deg[i] == 0 {
				next[i] += (1 - restart) * pi // a dead end keeps its share
				continue
			}
			for j, w := range adj[i] {
				next[j] += (1 - restart) * pi * w / deg[i]
			}
		}
		p = next
	}
	best := 0.0
	for i, d := range list {
		if _, seed := seeds[d.Path]; !seed {
			best = math.Max(best, p[i])
		}
	}
	if best == 0 {
		return nil
	}
	out := map[string]float64{}
	for i, d := range list {
		if _, seed := seeds[d.Path]; !seed && p[i] > 0 {
			out[d.Path] = top * p[i] / best
		}
	}
	return out
}
