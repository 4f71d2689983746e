package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// General vocabulary learned from public code: which code terms a task
// word points to. BuildVocab pairs prose with code in a list of public
// repositories (a definition's documentation with the parts of its name; a
// commit's message with the identifier parts on the lines it changed),
// counts which stems go together, and scores each pair by smoothed PMI or
// by an IBM Model 1 translation table. The result is a table of term
// statistics, no code, that package lexicon embeds.

// VocabRepo is one line of the corpus list.
type VocabRepo struct {
	Repo     string // owner/name
	Commit   string // the commit mined: its tree and the history up to it
	Licence  string
	Language string
}

// ReadVocabList reads a corpus list: "# " comment lines, then one
// repository a line, repo<TAB>commit<TAB>licence<TAB>language. It returns
// the repositories and the file's line count.
func ReadVocabList(path string) ([]VocabRepo, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read the corpus list: %w", err)
	}
	var out []VocabRepo
	lines := 0
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		lines++
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		for len(f) < 4 {
			f = append(f, "")
		}
		r := VocabRepo{Repo: strings.TrimSpace(f[0]), Commit: strings.TrimSpace(f[1]), Licence: strings.TrimSpace(f[2]), Language: strings.TrimSpace(f[3])}
		owner, name, ok := strings.Cut(r.Repo, "/")
		if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
			return nil, 0, fmt.Errorf("%s:%d: %q is not owner/name", path, i+1, r.Repo)
		}
		if r.Commit == "" || strings.ContainsAny(r.Commit, " \t") || strings.HasPrefix(r.Commit, "-") {
			return nil, 0, fmt.Errorf("%s:%d: %s has no commit", path, i+1, r.Repo)
		}
		if key := strings.ToLower(r.Repo); seen[key] {
			return nil, 0, fmt.Errorf("%s:%d: %s is listed twice", path, i+1, r.Repo)
		} else {
			seen[key] = true
		}
		out = append(out, r)
	}
	return out, lines, nil
}

// ReadExcluded reads the repositories that must never be mined (the
// benchmark's): owner/name, one a line; # starts a comment. Names are
// lower-cased.
func ReadExcluded(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the excluded repositories: %w", err)
	}
	out := map[string]bool{}
	for line := range strings.SplitSeq(string(data), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, r := range strings.Fields(line) {
			out[strings.ToLower(r)] = true
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no repository: the benchmark's repositories must be excluded", path)
	}
	return out, nil
}

// excludedRepo reports whether repo is one of the excluded, in any of the
// forms a mirror may give it ("owner/name", "swe-bench/owner__name"), or
// of the same project: a repository of an excluded one's organisation
// where the organisation is named for the project, the excluded one's
// (an excluded acme-rs/acme leaves out acme-rs/widgets, an excluded
// kiln/kiln its client libraries) or this one's (an excluded acmejs/core
// leaves out acmejs/acme).
func excludedRepo(repo string, excluded map[string]bool) bool {
	r := strings.ToLower(repo)
	if excluded[r] {
		return true
	}
	owner, name, _ := strings.Cut(r, "/")
	if o, n, ok := strings.Cut(name, "__"); ok {
		if excluded[o+"/"+n] {
			return true
		}
		owner, name = o, n
	}
	for e := range excluded {
		eo, en, ok := strings.Cut(e, "/")
		if !ok || eo != owner {
			continue
		}
		if namedFor(owner, en, 2) || namedFor(owner, name, 3) {
			return true
		}
	}
	return false
}

// namedFor reports whether an organisation's name holds a project's: the
// project's whole name, of min letters or more, its punctuation aside
// (quillize holds quill, kqlang kq, spindle-rs spindle).
func namedFor(owner, project string, min int) bool {
	squash := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r == '.' {
				return -1
			}
			return r
		}, s)
	}
	p := squash(project)
	return len(p) >= min && strings.Contains(squash(owner), p)
}

// The scoring methods.
const (
	VocabPMI  = "pmi"
	VocabIBM1 = "ibm1"
)

// VocabOptions says what BuildVocab reads and how it scores.
type VocabOptions struct {
	Repos Repos  // where each listed repository's git directory is
	List  string // the corpus list (see ReadVocabList)
	// Excluded lists the repositories never to mine; default excluded.txt
	// beside List. A listed repository that is excluded is an error.
	Excluded string
	Method   string // VocabIBM1 (the default) or VocabPMI
	Commits  int    // commit units per repository, at most (default 2000)
	Files    int    // source files read per repository, at most (default 3000)
	Docs     int    // doc units per repository, at most (default 6000)
	TopK     int    // terms kept per word (default 12)
	// MinWordUnits is how many units a word must be in (default 10), and
	// MinRepos how many repositories a word, a term and a kept pair must
	// be in (default 3).
	MinWordUnits int
	MinRepos     int
	// MinPairUnits is how many units a kept pair must be in (default 4).
	MinPairUnits int
	Iterations   int    // EM iterations of IBM Model 1 (default 5)
	Jobs         int    // repositories mined at once (default 2)
	Cache        string // a directory keeping each repository's units between runs; "" for none
	SkipMissing  bool   // pass over listed repositories with no git directory or commit, instead of failing
	Command      string // the command line, for the file's header
	Log          io.Writer
}

func (o *VocabOptions) defaults() error {
	if o.Method == "" {
		o.Method = VocabIBM1
	}
	if o.Method != VocabPMI && o.Method != VocabIBM1 {
		return fmt.Errorf("unknown method %q: pmi or ibm1", o.Method)
	}
	def := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&o.Commits, 2000)
	def(&o.Files, 3000)
	def(&o.Docs, 6000)
	def(&o.TopK, 12)
	def(&o.MinWordUnits, 10)
	def(&o.MinRepos, 3)
	def(&o.MinPairUnits, 4)
	def(&o.Iterations, 5)
	def(&o.Jobs, 2)
	if o.Excluded == "" {
		o.Excluded = filepath.Join(filepath.Dir(o.List), "excluded.txt")
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return nil
}

// VocabStats says what BuildVocab read and made.
type VocabStats struct {
	Listed      int      // repositories listed
	Mined       int      // of those, mined
	Missing     []string // passed over (SkipMissing): no git directory or no such commit
	DocUnits    int
	CommitUnits int
	Words       int // lines of the table
	Bytes       int
	Mining      time.Duration
	Scoring     time.Duration
}

// vocabUnitsVersion changes whenever mining changes what a unit holds, so
// that cached units of an older miner are not reused.
const vocabUnitsVersion = 4

// vocabCorpus is every unit mined, with words and terms as ids.
type vocabCorpus struct {
	ids   map[string]int32
	names []string
	units []cunit
	repos []string
}

type cunit struct {
	repo   int32
	commit bool
	words  []int32
	terms  []int32
}

func (c *vocabCorpus) id(s string) int32 {
	if id, ok := c.ids[s]; ok {
		return id
	}
	id := int32(len(c.names))
	c.ids[s] = id
	c.names = append(c.names, s)
	return id
}

// mineVocabCorpus mines every listed repository, Jobs at a time, with
// their units in list order.
func mineVocabCorpus(ctx context.Context, opt *VocabOptions, st *VocabStats) (*vocabCorpus, int, error) {
	list, lines, err := ReadVocabList(opt.List)
	if err != nil {
		return nil, 0, err
	}
	excluded, err := ReadExcluded(opt.Excluded)
	if err != nil {
		return nil, 0, err
	}
	for _, r := range list {
		if excludedRepo(r.Repo, excluded) {
			return nil, 0, fmt.Errorf("%s is a benchmark repository (listed in %s): it must not be mined; take it out of %s", r.Repo, opt.Excluded, opt.List)
		}
	}
	st.Listed = len(list)
	start := time.Now()
	type result struct {
		units   []vocabUnit
		missing bool
		err     error
	}
	results := make([]result, len(list))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, opt.Jobs) {
		wg.Go(func() {
			for i := range next {
				t0 := time.Now()
				units, missing, err := mineVocabRepo(ctx, opt, list[i])
				results[i] = result{units, missing, err}
				d, c := 0, 0
				for _, u := range units {
					if u.Commit {
						c++
					} else {
						d++
					}
				}
				switch {
				case err != nil:
					fmt.Fprintf(opt.Log, "%s: %v\n", list[i].Repo, err)
				case missing:
					fmt.Fprintf(opt.Log, "%s: not there, passed over\n", list[i].Repo)
				default:
					fmt.Fprintf(opt.Log, "%s: %d doc units, %d commit units (%.1fs)\n", list[i].Repo, d, c, time.Since(t0).Seconds())
				}
			}
		})
	}
	for i := range list {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	c := &vocabCorpus{ids: map[string]int32{}}
	for i, r := range results {
		if r.err != nil {
			return nil, 0, fmt.Errorf("mine %s: %w", list[i].Repo, r.err)
		}
		if r.missing {
			st.Missing = append(st.Missing, list[i].Repo)
			continue
		}
		repo := int32(len(c.repos))
		c.repos = append(c.repos, list[i].Repo)
		for _, u := range r.units {
			cu := cunit{repo: repo, commit: u.Commit, words: make([]int32, len(u.Words)), terms: make([]int32, len(u.Terms))}
			for j, w := range u.Words {
				cu.words[j] = c.id(w)
			}
			for j, t := range u.Terms {
				cu.terms[j] = c.id(t)
			}
			c.units = append(c.units, cu)
			if u.Commit {
				st.CommitUnits++
			} else {
				st.DocUnits++
			}
		}
	}
	st.Mined = len(c.repos)
	st.Mining = time.Since(start)
	return c, lines, nil
}

// mineVocabRepo mines one repository, or reads its units from the cache.
func mineVocabRepo(ctx context.Context, opt *VocabOptions, r VocabRepo) ([]vocabUnit, bool, error) {
	gitDir, err := opt.Repos.GitDir(r.Repo)
	if err != nil {
		if opt.SkipMissing {
			return nil, true, nil
		}
		return nil, false, err
	}
	out, err := gitOutput(ctx, gitDir, "rev-parse", "--quiet", "--verify", r.Commit+"^{commit}")
	if err != nil {
		if opt.SkipMissing {
			return nil, true, nil
		}
		return nil, false, fmt.Errorf("no commit %s in %s", r.Commit, gitDir)
	}
	commit := strings.TrimSpace(string(out))
	var cache string
	if opt.Cache != "" {
		key := fmt.Sprintf("v%d-f%d-d%d-c%d", vocabUnitsVersion, opt.Files, opt.Docs, opt.Commits)
		cache = filepath.Join(opt.Cache, strings.ReplaceAll(r.Repo, "/", "+")+"@"+commit+"-"+key+".units")
		if units, err := readUnits(cache); err == nil {
			return units, false, nil
		}
	}
	units, err := mineVocabUnits(ctx, gitDir, commit, opt.Files, opt.Docs, opt.Commits)
	if err != nil {
		return nil, false, err
	}
	if cache != "" {
		if err := writeUnits(cache, units); err != nil {
			return nil, false, err
		}
	}
	return units, false, nil
}

// writeUnits keeps units in a file: a line a unit, "d" or "c", its words
// and its terms, tab-separated, each space-separated.
func writeUnits(path string, units []vocabUnit) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cache units: %w", err)
	}
	var b bytes.Buffer
	for _, u := range units {
		kind := "d"
		if u.Commit {
			kind = "c"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", kind, strings.Join(u.Words, " "), strings.Join(u.Terms, " "))
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cache units: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cache units: %w", err)
	}
	return nil
}

func readUnits(path string) ([]vocabUnit, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var units []vocabUnit
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 || (fs[0] != "d" && fs[0] != "c") {
			return nil, fmt.Errorf("%s: a bad line", path)
		}
		units = append(units, vocabUnit{Commit: fs[0] == "c", Words: strings.Fields(fs[1]), Terms: strings.Fields(fs[2])})
	}
	return units, sc.Err()
}

// BuildVocab mines the listed repositories and returns the vocabulary
// file: a header of # lines, then word<TAB>term weight term weight ...
// lines sorted bytewise by word.
func BuildVocab(ctx context.Context, opt VocabOptions) ([]byte, VocabStats, error) {
	var st VocabStats
	if err := opt.defaults(); err != nil {
		return nil, st, err
	}
	c, lines, err := mineVocabCorpus(ctx, &opt, &st)
	if err != nil {
		return nil, st, err
	}
	if len(st.Missing) > 0 {
		fmt.Fprintf(opt.Log, "passed over %d listed repositories that are not there: %s\n", len(st.Missing), strings.Join(st.Missing, ", "))
	}
	if len(c.units) == 0 {
		return nil, st, errNoUnits
	}
	t0 := time.Now()
	table := scoreVocab(c, nil, &opt)
	st.Scoring = time.Since(t0)
	var b bytes.Buffer
	writeVocabHeader(&b, &opt, &st, lines)
	st.Words = writeVocabTable(&b, c, table)
	st.Bytes = b.Len()
	return b.Bytes(), st, nil
}

func writeVocabHeader(b *bytes.Buffer, opt *VocabOptions, st *VocabStats, lines int) {
	fmt.Fprintf(b, "# hone general vocabulary: which code terms a task word points to, learned from public code.\n")
	fmt.Fprintf(b, "# Term statistics only, no code: counts of which prose words (documentation of a definition,\n")
	fmt.Fprintf(b, "# a commit's message) go with which identifier parts (the definition's name, the identifiers\n")
	fmt.Fprintf(b, "# on the lines the commit changed). Words and terms are tokenize stems.\n")
	fmt.Fprintf(b, "# Lines: word<TAB>term weight term weight ..., terms by weight (in (0,1]) descending,\n")
	fmt.Fprintf(b, "# lines sorted bytewise by word. A word never maps to itself.\n")
	cmd := opt.Command
	if cmd == "" {
		cmd = "hone bench vocab --list " + opt.List + " --method " + opt.Method
	}
	fmt.Fprintf(b, "# Built by: %s\n", cmd)
	fmt.Fprintf(b, "# Corpus: %s, %d lines, %d repositories listed, %d mined", filepath.ToSlash(opt.List), lines, st.Listed, st.Mined)
	if len(st.Missing) > 0 {
		fmt.Fprintf(b, ", %d not there and passed over", len(st.Missing))
	}
	fmt.Fprintf(b, "\n")
	switch opt.Method {
	case VocabIBM1:
		fmt.Fprintf(b, "# Method: ibm1, IBM Model 1 t(term | word) by EM from the prose to the code, with a NULL word,\n")
		fmt.Fprintf(b, "#   %d iterations; weight sqrt(t); pairs in %d+ units of %d+ repositories whose t is %d+ times\n", opt.Iterations, opt.MinPairUnits, opt.MinRepos, ibm1Lift)
		fmt.Fprintf(b, "#   the term's share of all terms\n")
	default:
		fmt.Fprintf(b, "# Method: pmi, normalized PMI over units, discounted for rare pairs: npmi * n/(n+%d),\n", pmiDiscount)
		fmt.Fprintf(b, "#   pairs in %d+ units of %d+ repositories\n", opt.MinPairUnits, opt.MinRepos)
	}
	fmt.Fprintf(b, "# Parameters: commits=%d files=%d docs=%d top=%d min-word-units=%d min-repos=%d min-pair-units=%d\n",
		opt.Commits, opt.Files, opt.Docs, opt.TopK, opt.MinWordUnits, opt.MinRepos, opt.MinPairUnits)
	fmt.Fprintf(b, "# Units: %d (%d doc, %d commit)\n", st.DocUnits+st.CommitUnits, st.DocUnits, st.CommitUnits)
}

// writeVocabTable writes the table's lines, sorted by word, and returns
// how many.
func writeVocabTable(b *bytes.Buffer, c *vocabCorpus, table map[int32][]scored) int {
	words := make([]int32, 0, len(table))
	for w, ts := range table {
		if len(ts) > 0 {
			words = append(words, w)
		}
	}
	sort.Slice(words, func(i, j int) bool { return c.names[words[i]] < c.names[words[j]] })
	for _, w := range words {
		b.WriteString(c.names[w])
		b.WriteByte('\t')
		for i, s := range table[w] {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c.names[s.term])
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(s.weight, 'f', 2, 64))
		}
		b.WriteByte('\n')
	}
	return len(words)
}

// scored is a term's weight for a word.
type scored struct {
	term   int32
	weight float64 // rounded to 2 decimals, in (0,1]
}

// ibm1Lift is how much likelier than among all terms a word must make a
// term for IBM Model 1's table to keep it.
const ibm1Lift = 8

// pmiDiscount damps the PMI of pairs seen in few units: n/(n+pmiDiscount).
const pmiDiscount = 10

// vocabCounts are the counts both methods score.
type vocabCounts struct {
	n          float64 // units
	wordUnits  []int32
	termUnits  []int32
	keepWord   []bool
	keepTerm   []bool
	keys       []uint64 // word<<32 | term, sorted
	pairUnits  []int32
	pairRepos  []int32
	rowStart   map[int32]int // first index in keys of each word's row
	trainUnits []int32       // indexes of the units counted
}

// countVocab counts the units of the repositories use accepts (all when
// nil): each word, term and pair once a unit, and the repositories each
// is in. Only words in MinWordUnits units and MinRepos repositories, and
// terms in MinRepos repositories, count in pairs; a word is never paired
// with itself.
func countVocab(c *vocabCorpus, use func(repo int32) bool, opt *VocabOptions) *vocabCounts {
	n := len(c.names)
	k := &vocabCounts{wordUnits: make([]int32, n), termUnits: make([]int32, n), keepWord: make([]bool, n), keepTerm: make([]bool, n)}
	wordRepos, termRepos := make([]int32, n), make([]int32, n)
	lastW, lastT := make([]int32, n), make([]int32, n)
	for i := range lastW {
		lastW[i], lastT[i] = -1, -1
	}
	for i := range c.units {
		u := &c.units[i]
		if use != nil && !use(u.repo) {
			continue
		}
		k.trainUnits = append(k.trainUnits, int32(i))
		k.n++
		for _, w := range u.words {
			k.wordUnits[w]++
			if lastW[w] != u.repo {
				lastW[w] = u.repo
				wordRepos[w]++
			}
		}
		for _, t := range u.terms {
			k.termUnits[t]++
			if lastT[t] != u.repo {
				lastT[t] = u.repo
				termRepos[t]++
			}
		}
	}
	minRepos := int32(opt.MinRepos)
	for i := range n {
		k.keepWord[i] = k.wordUnits[i] >= int32(opt.MinWordUnits) && wordRepos[i] >= minRepos
		k.keepTerm[i] = termRepos[i] >= minRepos && k.termUnits[i] >= int32(opt.MinPairUnits)
	}
	type pc struct{ units, repos, last int32 }
	pairs := map[uint64]int32{} // index in counts
	var counts []pc
	for _, ui := range k.trainUnits {
		u := &c.units[ui]
		for _, w := range u.words {
			if !k.keepWord[w] {
				continue
			}
			for _, t := range u.terms {
				if t == w || !k.keepTerm[t] {
					continue
				}
				key := uint64(w)<<32 | uint64(t)
				j, ok := pairs[key]
				if !ok {
					j = int32(len(counts))
					pairs[key] = j
					counts = append(counts, pc{last: -1})
				}
				p := &counts[j]
				p.units++
				if p.last != u.repo {
					p.last = u.repo
					p.repos++
				}
			}
		}
	}
	k.keys = make([]uint64, 0, len(pairs))
	for key := range pairs {
		k.keys = append(k.keys, key)
	}
	slices.Sort(k.keys)
	k.pairUnits = make([]int32, len(k.keys))
	k.pairRepos = make([]int32, len(k.keys))
	k.rowStart = map[int32]int{}
	for i, key := range k.keys {
		p := counts[pairs[key]]
		k.pairUnits[i], k.pairRepos[i] = p.units, p.repos
		if w := int32(key >> 32); i == 0 || int32(k.keys[i-1]>>32) != w {
			k.rowStart[w] = i
		}
	}
	return k
}

// row returns the index range of a word's pairs.
func (k *vocabCounts) row(w int32) (int, int) {
	start, ok := k.rowStart[w]
	if !ok {
		return 0, 0
	}
	end := sort.Search(len(k.keys)-start, func(i int) bool { return int32(k.keys[start+i]>>32) != w }) + start
	return start, end
}

// pairIndex returns the index of (w, t) in k.keys, or -1.
func (k *vocabCounts) pairIndex(start, end int, w, t int32) int {
	key := uint64(w)<<32 | uint64(t)
	i := sort.Search(end-start, func(i int) bool { return k.keys[start+i] >= key }) + start
	if i < end && k.keys[i] == key {
		return i
	}
	return -1
}

// scoreVocab counts the units of the repositories use accepts and scores
// every pair by opt.Method; it returns each word's TopK terms among the
// pairs in MinPairUnits units of MinRepos repositories. IBM Model 1's
// pairs must also have a t ibm1Lift times the term's share of all terms,
// and weigh sqrt(t); PMI's weigh their discounted NPMI.
func scoreVocab(c *vocabCorpus, use func(repo int32) bool, opt *VocabOptions) map[int32][]scored {
	k := countVocab(c, use, opt)
	var weight []float64
	if opt.Method == VocabIBM1 {
		weight = ibm1(c, k, opt.Iterations)
		// Keep a term only where the word makes it likelier than it is
		// among all terms: "err" and "get" go with every word.
		total := 0.0
		for t, n := range k.termUnits {
			if k.keepTerm[t] {
				total += float64(n)
			}
		}
		for i, key := range k.keys {
			if bg := float64(k.termUnits[int32(key)]) / total; weight[i] < ibm1Lift*bg {
				weight[i] = 0
			}
		}
	} else {
		weight = npmi(k)
	}
	table := map[int32][]scored{}
	var words []int32
	for w := range k.rowStart {
		words = append(words, w)
	}
	slices.Sort(words)
	for _, w := range words {
		start, end := k.row(w)
		var row []scored
		for i := start; i < end; i++ {
			if k.pairUnits[i] < int32(opt.MinPairUnits) || k.pairRepos[i] < int32(opt.MinRepos) {
				continue
			}
			wt := weight[i]
			if opt.Method == VocabIBM1 {
				// t is small (0.001 to 0.1): its square root keeps two
				// decimals telling terms apart, in the same order.
				wt = math.Sqrt(wt)
			}
			wt = math.Round(min(wt, 1)*100) / 100
			if wt <= 0 {
				continue
			}
			row = append(row, scored{term: int32(k.keys[i]), weight: wt})
		}
		sort.SliceStable(row, func(i, j int) bool {
			if row[i].weight != row[j].weight {
				return row[i].weight > row[j].weight
			}
			// Ties: the term seen with more units of the word, then by name.
			a, b := row[i].term, row[j].term
			if k.termUnits[a] != k.termUnits[b] {
				return k.termUnits[a] > k.termUnits[b]
			}
			return c.names[a] < c.names[b]
		})
		if len(row) > opt.TopK {
			row = row[:opt.TopK]
		}
		if len(row) > 0 {
			table[w] = row
		}
	}
	return table
}

// npmi scores each pair by its normalized pointwise mutual information
// over units, npmi = ln(p(w,t) / p(w)p(t)) / -ln p(w,t), times
// n/(n+pmiDiscount) for a pair in n units: a pair seen a handful of times
// cannot score as high as one seen a hundred.
func npmi(k *vocabCounts) []float64 {
	out := make([]float64, len(k.keys))
	for i, key := range k.keys {
		w, t := int32(key>>32), int32(key)
		n := float64(k.pairUnits[i])
		pwt := n / k.n
		if pwt >= 1 {
			continue
		}
		pmi := math.Log(pwt / (float64(k.wordUnits[w]) / k.n * float64(k.termUnits[t]) / k.n))
		if v := pmi / -math.Log(pwt) * n / (n + pmiDiscount); v > 0 {
			out[i] = v
		}
	}
	return out
}

// ibm1 estimates IBM Model 1's t(term | word) by EM, each unit's terms
// generated by its words or by a NULL word that stands for the terms any
// change or definition has. A term that is also one of the unit's words
// is left out: it explains itself. Starting from uniform t, each
// iteration shares every term among the unit's words in proportion to
// t(term | word), then renormalizes each word's row.
func ibm1(c *vocabCorpus, k *vocabCounts, iterations int) []float64 {
	t := make([]float64, len(k.keys))
	for i := range t {
		t[i] = 1
	}
	tNull := make([]float64, len(c.names))
	for i := range tNull {
		tNull[i] = 1
	}
	count := make([]float64, len(k.keys))
	countNull := make([]float64, len(c.names))
	type rowRange struct{ start, end int }
	rows := map[int32]rowRange{}
	for w := range k.rowStart {
		s, e := k.row(w)
		rows[w] = rowRange{s, e}
	}
	var idx []int
	for range iterations {
		clear(count)
		clear(countNull)
		for _, ui := range k.trainUnits {
			u := &c.units[ui]
			for _, f := range u.terms {
				if !k.keepTerm[f] || slices.Contains(u.words, f) {
					continue
				}
				idx = idx[:0]
				denom := tNull[f]
				for _, e := range u.words {
					if !k.keepWord[e] {
						continue
					}
					r := rows[e]
					if j := k.pairIndex(r.start, r.end, e, f); j >= 0 {
						idx = append(idx, j)
						denom += t[j]
					}
				}
				for _, j := range idx {
					count[j] += t[j] / denom
				}
				countNull[f] += tNull[f] / denom
			}
		}
		words := make([]int32, 0, len(rows))
		for w := range rows {
			words = append(words, w)
		}
		slices.Sort(words)
		for _, w := range words {
			r := rows[w]
			sum := 0.0
			for j := r.start; j < r.end; j++ {
				sum += count[j]
			}
			for j := r.start; j < r.end; j++ {
				if sum > 0 {
					t[j] = count[j] / sum
				} else {
					t[j] = 0
				}
			}
		}
		sum := 0.0
		for _, v := range countNull {
			sum += v
		}
		for f := range tNull {
			if sum > 0 {
				tNull[f] = countNull[f] / sum
			}
		}
	}
	return t
}

// VocabEval is how well a table predicts the code terms of units it was
// not learned from.
type VocabEval struct {
	Method string
	Kind   string  // "commit" or "doc"
	Units  int     // held-out units with a word and a term to predict
	Hit10  float64 // share of units with a term of theirs among the 10 predicted
	Rec10  float64 // mean share of a unit's terms (10 at most) among the 10 predicted
	MRR    float64 // mean reciprocal rank of a unit's first term predicted
	Empty  float64 // share of units the table predicts nothing for
	// IDF10 is the share of a unit's terms among the 10 predicted, each
	// term weighed by its inverse document frequency over the training
	// units, ln(N/n): what a search gains from the terms predicted, where
	// "err" weighs little.
	IDF10 float64
}

// EvalVocab mines the listed repositories, learns a table by each method
// (and a baseline of the most common terms) from four fifths of the
// repositories, and measures how each predicts the code terms of the
// other fifth's units from their words: the terms of a definition's name
// from its documentation, and the identifiers a commit changed from its
// message, a unit's own words left out of both.
func EvalVocab(ctx context.Context, opt VocabOptions) ([]VocabEval, VocabStats, error) {
	var st VocabStats
	if err := opt.defaults(); err != nil {
		return nil, st, err
	}
	c, _, err := mineVocabCorpus(ctx, &opt, &st)
	if err != nil {
		return nil, st, err
	}
	if len(c.units) == 0 {
		return nil, st, errNoUnits
	}
	held := make([]bool, len(c.repos))
	for i, r := range c.repos {
		h := fnv.New32a()
		h.Write([]byte(strings.ToLower(r)))
		held[i] = h.Sum32()%5 == 0
	}
	train := func(repo int32) bool { return !held[repo] }
	var out []VocabEval
	tables := map[string]map[int32][]scored{}
	for _, m := range []string{VocabPMI, VocabIBM1} {
		o := opt
		o.Method = m
		t0 := time.Now()
		tables[m] = scoreVocab(c, train, &o)
		fmt.Fprintf(opt.Log, "%s: learned in %.1fs\n", m, time.Since(t0).Seconds())
	}
	// The baseline: the terms in most training units, the same for all.
	k := countVocab(c, train, &opt)
	var popular []scored
	for t, n := range k.termUnits {
		if k.keepTerm[t] {
			popular = append(popular, scored{term: int32(t), weight: float64(n)})
		}
	}
	sort.Slice(popular, func(i, j int) bool {
		if popular[i].weight != popular[j].weight {
			return popular[i].weight > popular[j].weight
		}
		return popular[i].term < popular[j].term
	})
	// The commonest terms ("err", "valu", "str") match every file: a
	// consumer weighs them down. The "rare" figures leave them out of both
	// the units' terms and the predictions.
	common := map[int32]bool{}
	for _, s := range popular[:min(len(popular), vocabCommonTerms)] {
		common[s.term] = true
	}
	idf := func(t int32) float64 {
		return math.Log(k.n / float64(max(k.termUnits[t], 1)))
	}
	skip := func(t int32, words []int32, rare bool) bool {
		return slices.Contains(words, t) || rare && common[t]
	}
	for _, m := range []string{"popular", VocabPMI, VocabIBM1} {
		for _, kind := range []string{"commit", "doc", "commit-rare", "doc-rare"} {
			rare := strings.HasSuffix(kind, "-rare")
			e := VocabEval{Method: m, Kind: kind}
			for _, u := range c.units {
				if !held[u.repo] || u.commit != strings.HasPrefix(kind, "commit") {
					continue
				}
				gold := map[int32]bool{}
				for _, t := range u.terms {
					if !skip(t, u.words, rare) {
						gold[t] = true
					}
				}
				if len(gold) == 0 || len(u.words) == 0 {
					continue
				}
				var ranked []int32
				if m == "popular" {
					for _, s := range popular {
						if !skip(s.term, u.words, rare) && len(ranked) < 10 {
							ranked = append(ranked, s.term)
						}
					}
				} else {
					ranked = predictTerms(tables[m], u.words, 10, func(t int32) bool { return skip(t, u.words, rare) })
				}
				e.Units++
				if len(ranked) == 0 {
					e.Empty++
					continue
				}
				hits, first := 0, 0
				gotIDF, allIDF := 0.0, 0.0
				for t := range gold {
					allIDF += idf(t)
				}
				for i, t := range ranked {
					if gold[t] {
						gotIDF += idf(t)
						hits++
						if first == 0 {
							first = i + 1
						}
					}
				}
				if hits > 0 {
					e.Hit10++
					e.MRR += 1 / float64(first)
				}
				e.Rec10 += float64(hits) / float64(min(len(gold), 10))
				if allIDF > 0 {
					e.IDF10 += gotIDF / allIDF
				}
			}
			if e.Units > 0 {
				n := float64(e.Units)
				e.Hit10, e.Rec10, e.MRR, e.Empty, e.IDF10 = e.Hit10/n, e.Rec10/n, e.MRR/n, e.Empty/n, e.IDF10/n
			}
			out = append(out, e)
		}
	}
	return out, st, nil
}

// predictTerms ranks terms for a set of words: each term's weights summed
// over the words, those skip accepts left out.
func predictTerms(table map[int32][]scored, words []int32, n int, skip func(int32) bool) []int32 {
	score := map[int32]float64{}
	for _, w := range words {
		for _, s := range table[w] {
			if !skip(s.term) {
				score[s.term] += s.weight
			}
		}
	}
	ranked := make([]int32, 0, len(score))
	for t := range score {
		ranked = append(ranked, t)
	}
	sort.Slice(ranked, func(i, j int) bool {
		if score[ranked[i]] != score[ranked[j]] {
			return score[ranked[i]] > score[ranked[j]]
		}
		return ranked[i] < ranked[j]
	})
	return ranked[:min(len(ranked), n)]
}

// vocabCommonTerms is how many of the commonest terms the "rare" figures
// of EvalVocab leave out.
const vocabCommonTerms = 300

// errNoUnits is returned when the corpus gave nothing to learn from.
var errNoUnits = errors.New("the corpus gave no units")
