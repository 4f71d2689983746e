package walk

import (
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// refLine is the reference for a rule: one line of an ignore file found
// in the folder domain, matched as git documents it (gitignore(5)),
// written apart from the rules' compiled matching: a pattern without a
// slash matches the last element of a path at any depth below its domain;
// one with a slash matches the whole path below the domain, as a regular
// expression made from it ("**/" any folders, a last "/**" everything
// inside, "*" and "?" within an element).
type refLine struct {
	domain  []string
	exclude bool
	dirOnly bool
	base    string         // a pattern without a slash
	re      *regexp.Regexp // otherwise
}

func newRefLine(line string, domain []string) refLine {
	r := refLine{domain: domain, exclude: true}
	body := line
	if strings.HasPrefix(body, "!") {
		r.exclude = false
		body = body[1:]
	}
	if !strings.HasSuffix(body, `\ `) {
		body = strings.TrimRight(body, " ")
	}
	if strings.HasSuffix(body, "/") {
		r.dirOnly = true
		body = strings.TrimSuffix(body, "/")
	}
	if !strings.Contains(body, "/") {
		r.base = body
		return r
	}
	body = strings.TrimPrefix(body, "/")
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case strings.HasPrefix(body[i:], "**/") && (i == 0 || body[i-1] == '/'):
			re.WriteString("(?:.*/)?")
			i += 2
		case body[i:] == "**" && (i == 0 || body[i-1] == '/'):
			re.WriteString(".*")
			i++
		case c == '*':
			re.WriteString("[^/]*")
		case c == '?':
			re.WriteString("[^/]")
		case c == '\\' && i+1 < len(body):
			i++
			re.WriteString(regexp.QuoteMeta(body[i : i+1]))
		case c == '[':
			end := strings.IndexByte(body[i+1:], ']')
			if end < 0 {
				return refLine{domain: domain} // a bad pattern matches nothing
			}
			class := body[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			if class == "" || class == "^" {
				return refLine{domain: domain}
			}
			re.WriteString("[" + class + "]")
			i += end + 1
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	r.re = regexp.MustCompile(re.String())
	return r
}

// match reports whether the line decides the entry at p, the path's
// elements from the root.
func (r refLine) match(p []string, isDir bool) bool {
	if len(p) <= len(r.domain) || !slices.Equal(p[:len(r.domain)], r.domain) || r.dirOnly && !isDir {
		return false
	}
	rel := p[len(r.domain):]
	if r.re == nil {
		if r.base == "" {
			return false
		}
		ok, err := path.Match(strings.ReplaceAll(r.base, "[!", "[^"), rel[len(rel)-1])
		return ok && err == nil
	}
	return r.re.MatchString(strings.Join(rel, "/"))
}

// refIgnored is git's verdict on the entry at p: the last line that
// matches it decides.
func refIgnored(lines []refLine, p []string, isDir bool) bool {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i].match(p, isDir) {
			return lines[i].exclude
		}
	}
	return false
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
	// git matches bytes, filepath.Match runes: "?" and a class take
	// one byte of "é", which has two (TestWalkAgreesWithGitEdges).
	bytewise := map[[2]string]bool{{"[^a]", "é"}: false, {"?", "é"}: false}
	for _, p := range patterns {
		m := newNameMatcher(p)
		for _, n := range names {
			want, err := filepath.Match(p, n)
			want = want && err == nil
			if w, ok := bytewise[[2]string{p, n}]; ok {
				want = w
			}
			if got := m.match(n); got != want {
				t.Errorf("pattern %q (op %d) name %q: got %v, want %v", p, m.op, n, got, want)
			}
		}
	}
}

// TestCompileAgreesWithRules checks the compiled per-directory rule sets
// against the reference lines, matched one by one, for random ignore files
// and paths, in every directory, pruned or not. The reference's meaning is
// checked against git itself in TestWalkAgreesWithGitRandom.
func TestCompileAgreesWithRules(t *testing.T) {
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
		var refBase []refLine
		for _, l := range exclude {
			base = append(base, newRule(l, nil))
			refBase = append(refBase, newRefLine(l, nil))
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
					ref = append(ref, newRefLine(l, prefix))
				}
				if i == 0 || len(own) > 0 || !rs.uniform {
					rs = compile(append(rs.rules, own...), prefix)
				}
			}
			var scratch []string
			for _, name := range elems {
				for _, isDir := range []bool{false, true} {
					p := append(d[:len(d):len(d)], name)
					want := refIgnored(ref, p, isDir)
					if got := rs.ignored(name, isDir, d, &scratch); got != want {
						t.Fatalf("%s\npath %q dir %v: got ignored=%v, want %v", desc, p, isDir, got, want)
					}
				}
			}
		}
	}
}

// FuzzPattern: any pattern compiles and matches any name without a
// panic, and a name matcher's shortcuts for the simple shapes match what
// the general matcher does.
func FuzzPattern(f *testing.F) {
	for _, p := range []string{"*.[[:digit:]]", "[]a]", "[a-]x", "[!a]", "[[:nosuch:]]", "a[", `[\]]`, "[[:alpha:]", "*.py[co]", "a*b", "**/x", `a\`, "[z-a]"} {
		f.Add(p, "a1")
	}
	f.Fuzz(func(t *testing.T, p, name string) {
		g := compilePattern(p)
		want := g.match(name)
		if strings.Contains(name, "/") {
			return
		}
		if got := newNameMatcher(p); got.match(name) != want {
			t.Errorf("pattern %q (op %d) name %q: %v, the general matcher %v", p, got.op, name, !want, want)
		}
	})
}
