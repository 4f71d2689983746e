package walk

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// refPattern is the reference for rule: go-git's pattern, with the
// adjustments newRule documents made by wrapping it.
func refPattern(line string, domain []string) gitignore.Pattern {
	p := gitignore.ParsePattern(line, domain)
	body := strings.TrimPrefix(line, "!")
	if !strings.HasSuffix(body, `\ `) {
		body = strings.TrimRight(body, " ")
	}
	body = strings.TrimSuffix(body, "/")
	switch {
	case !strings.Contains(body, "/"):
		d := append([]string(nil), domain...)
		return &refBasename{inner: p, domain: d}
	case strings.HasSuffix(body, "/**"):
		return contentsPattern{p}
	}
	return p
}

// refBasename matches a slash-free pattern against the last element of
// paths below its domain.
type refBasename struct {
	inner  gitignore.Pattern
	domain []string
}

func (b *refBasename) Match(path []string, isDir bool) gitignore.MatchResult {
	if len(path) <= len(b.domain) {
		return gitignore.NoMatch
	}
	for i, e := range b.domain {
		if path[i] != e {
			return gitignore.NoMatch
		}
	}
	probe := append(append([]string(nil), b.domain...), path[len(path)-1])
	return b.inner.Match(probe, isDir)
}

func TestNameMatcher(t *testing.T) {
	patterns := []string{
		"", "a", "abc", "*", "**", "***", "*.go", "*.py[co]", "*.py[c]", "*[co]", "a*", "ab*",
		"*a*", "*ab*", "a*b", "a*.go", "[ab]", "[ab].c", "[^a]", "[a-c]x", "?", "a?c",
		`\#x`, `\!x`, `a\*`, "[", "[]", "a[", "*.[", "*x[", "*x[]", "*x[a-]", "*x[a]]",
		"*.tar.gz", "x*y*z", "*.egg-info", "é*", "*é", "*[é]", ".*", "*~",
	}
	names := []string{
		"", "a", "b", "ab", "abc", "ba", "x.go", "a.go", "ab.go", ".go", "x.pyc", "x.pyo",
		"x.py", "pyc", ".pyc", "c", "o", "*", "#x", "!x", "a*", "a\\", "x.c", "a.c", "b.c",
		"axb", "acb", "ac", "abb", "x.tar.gz", "tar.gz", "xyz", "xayaz", "x.egg-info",
		"é", "éa", "aé", "\xff", "a\xffb", ".hidden", "file~", "[", "x[", "a[",
	}
	for _, p := range patterns {
		m := newNameMatcher(p)
		for _, n := range names {
			want, err := filepath.Match(p, n)
			want = want && err == nil
			if got := m.match(n); got != want {
				t.Errorf("pattern %q (op %d) name %q: got %v, want %v", p, m.op, n, got, want)
			}
		}
	}
}

// TestCompileAgreesWithGoGit checks the compiled per-directory rule sets
// against go-git's matcher over the reference patterns, for random ignore
// files and paths, in every directory, pruned or not.
func TestCompileAgreesWithGoGit(t *testing.T) {
	elems := []string{"a", "b", "ab", "x.go", "tmp", "out"}
	pieces := []string{
		"a", "b", "ab", "*", "**", "*.go", "a*", "*b", "[ab]", "x.go", "tmp", "out", "?",
		"a*b", "*a*", "", "!",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	randPattern := func() string {
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteByte('!')
		}
		if rng.IntN(4) == 0 {
			b.WriteByte('/')
		}
		n := 1 + rng.IntN(3)
		for i := range n {
			if i > 0 {
				b.WriteByte('/')
			}
			p := pick(pieces)
			if p == "!" {
				p = `\!a`
			}
			b.WriteString(p)
		}
		if rng.IntN(3) == 0 {
			b.WriteByte('/')
		}
		if rng.IntN(10) == 0 {
			b.WriteString("  ")
		}
		return b.String()
	}
	// Directories that may hold ignore files, and those whose entries are
	// checked.
	var dirs [][]string
	var walkDirs func(prefix []string, depth int)
	walkDirs = func(prefix []string, depth int) {
		dirs = append(dirs, prefix)
		if depth == 3 {
			return
		}
		for _, e := range elems {
			walkDirs(append(prefix[:len(prefix):len(prefix)], e), depth+1)
		}
	}
	walkDirs(nil, 0)

	for round := range 300 {
		// Ignore files in some of the directories up to depth 2.
		files := map[string][]string{}
		for range 1 + rng.IntN(4) {
			d := dirs[rng.IntN(1+len(elems)+len(elems)*len(elems))]
			key := strings.Join(d, "/")
			for range 1 + rng.IntN(4) {
				files[key] = append(files[key], randPattern())
			}
		}
		var exclude []string
		if rng.IntN(3) == 0 {
			exclude = []string{randPattern()}
		}
		var base []*rule
		var refBase []gitignore.Pattern
		for _, l := range exclude {
			base = append(base, newRule(l, nil))
			refBase = append(refBase, refPattern(l, nil))
		}
		desc := fmt.Sprintf("round %d: exclude %q files %q", round, exclude, files)

		for _, d := range dirs {
			// The rule set as the walk builds it, from the root down.
			rs := &ruleSet{rules: base}
			ref := refBase[:len(refBase):len(refBase)]
			for i := 0; i <= len(d); i++ {
				prefix := d[:i]
				var own []*rule
				for _, l := range files[strings.Join(prefix, "/")] {
					own = append(own, newRule(l, prefix))
					ref = append(ref, refPattern(l, prefix))
				}
				if i == 0 || len(own) > 0 || !rs.uniform {
					rs = compile(append(rs.rules, own...), prefix)
				}
			}
			m := gitignore.NewMatcher(ref)
			var scratch []string
			for _, name := range elems {
				for _, isDir := range []bool{false, true} {
					path := append(d[:len(d):len(d)], name)
					want := m.Match(path, isDir)
					if got := rs.ignored(name, isDir, d, &scratch); got != want {
						t.Fatalf("%s\npath %q dir %v: got ignored=%v, want %v", desc, path, isDir, got, want)
					}
				}
			}
		}
	}
}
