package retrieve

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/lexicon"
	"github.com/hone-tools/hone/tokenize"
)

// sheddingRepo is a repository that says "shedding" where users say
// "overloaded": its doc comments tie the two. Filler files make the
// shedding files a few among many.
func sheddingRepo(t *testing.T) *index.Index {
	t.Helper()
	files := map[string]string{
		"load/shedder.go":      "package load\n\n// AdaptiveShedder rejects work when the machine is overloaded.\nfunc AdaptiveShedder() {}\n",
		"rest/shedding.go":     "package rest\n\n// SheddingHandler drops requests when the service is overloaded.\nfunc SheddingHandler() {}\n",
		"rpc/shedding.go":      "package rpc\n\n// UnarySheddingInterceptor refuses calls when the server is overloaded.\nfunc UnarySheddingInterceptor() {}\n",
		"stat/shedding.go":     "package stat\n\n// SheddingStat counts what was dropped while overloaded.\ntype SheddingStat struct{}\n",
		"breaker/breaker.go":   "package breaker\n\n// Breaker opens after repeated failures.\ntype Breaker struct{}\n",
		"internal/overload.go": "package internal\n\nvar overloadFactor = 0.1\n",
	}
	for i := range 80 {
		files[fmt.Sprintf("filler/f%02d.go", i)] = fmt.Sprintf("package filler\n\n// Format%d writes the value.\nfunc Format%d() {}\n", i, i)
	}
	repo := writeFiles(t, files)
	ix, err := buildIndex(repo, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// The repository's doc comments teach refine the codebase's word, which
// the next cycle searches on its own.
func TestLearnVocabulary(t *testing.T) {
	ix := sheddingRepo(t)
	tp := parseTask("reject requests when the machine is overloaded", ix)
	opts, _ := hone.Options{}.WithDefaults()
	q := firstQuery(tp, opts)
	alts := map[string]int{}
	for _, c := range q.concepts {
		alts[c.label] = len(c.alts)
	}
	rf := newRefiner(ix, tp, newSources(ix), opts.Threshold)
	var cyc hone.Cycle
	next, _ := rf.refine(1, q, nil, newRecord(), &cyc)

	shed := tokenize.Stem("shedding")
	var found *hone.Related
	for i, r := range cyc.LearnedRelated {
		if tokenize.Stem(r.Term) == shed || tokenize.Stem(r.Term) == tokenize.Stem("shedder") {
			found = &cyc.LearnedRelated[i]
		}
	}
	if found == nil {
		t.Fatalf("learned related %+v, want shedding tied to overloaded", cyc.LearnedRelated)
	}
	if found.With != "overloaded" && tokenize.Stem(found.With) != tokenize.Stem("overloaded") {
		t.Errorf("%s is tied to %q, want overloaded", found.Term, found.With)
	}
	probed := false
	for _, p := range next.probes {
		probed = probed || tokenize.Stem(p.label) == tokenize.Stem(found.Term)
	}
	if !probed {
		t.Errorf("%s is not among the next cycle's probes %+v", found.Term, next.probes)
	}
	for _, c := range q.concepts {
		if len(c.alts) != alts[c.label] {
			t.Errorf("refine changed the query it was given: %s has %d forms, had %d", c.label, len(c.alts), alts[c.label])
		}
	}
	for _, c := range next.concepts {
		for _, a := range c.alts {
			if a.source == "thesaurus" && tokenize.Stem(a.label) == tokenize.Stem(found.Term) {
				return
			}
		}
	}
	t.Errorf("%s is not a form of the next query's concepts", found.Term)
	// "filler" words are in most files: none stands for a task word.
	for _, r := range cyc.LearnedRelated {
		if df := ix.DF(tokenize.Stem(r.Term)); float64(df) > vocabMaxFiles*float64(ix.N()) {
			t.Errorf("%s is in %d of %d files, over the share a learned word may have", r.Term, df, ix.N())
		}
	}
}

// The general vocabulary adds a code term to a task word only where the
// repository holds it; words in any script add nothing unsupported.
func TestAddVocabulary(t *testing.T) {
	ix := sheddingRepo(t)
	table := map[string][]lexicon.Assoc{
		tokenize.Stem("overloaded"): {{Term: tokenize.Stem("shedding"), Weight: 0.6}, {Term: "nowhere", Weight: 0.9}, {Term: tokenize.Stem("breaker"), Weight: 0.1}},
		tokenize.Stem("reject"):     {{Term: tokenize.Stem("format"), Weight: 0.8}}, // in every filler file: says nothing
	}
	old := associated
	associated = func(w string) []lexicon.Assoc { return table[w] }
	t.Cleanup(func() { associated = old })

	for _, tt := range []struct {
		task string
		want []string // the vocabulary's forms, by stem
	}{
		{"reject requests when the machine is overloaded", []string{tokenize.Stem("shedding")}},
		{"machine overloaded 🔥🔥 请修复", []string{tokenize.Stem("shedding")}},
		{"请在过载时拒绝请求", nil},
		{"🙂🙃", nil},
		// A task that names the code is led there by its own words.
		{"AdaptiveShedder rejects requests when the machine is overloaded", nil},
		{"load/shedder.go rejects requests when the machine is overloaded", nil},
		{"", nil},
	} {
		tp := parseTask(tt.task, ix)
		var got []string
		for _, c := range tp.concepts {
			for _, a := range c.alts {
				if a.source != "vocabulary" {
					continue
				}
				got = append(got, a.stems...)
				if a.discount <= 0 || a.discount > 1 {
					t.Errorf("%q: %s has discount %v, want (0,1]", tt.task, a.label, a.discount)
				}
				for _, s := range a.stems {
					if ix.DF(s) == 0 {
						t.Errorf("%q: %s is in no file", tt.task, s)
					}
				}
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: vocabulary %v, want %v", tt.task, got, tt.want)
		}
	}
}
