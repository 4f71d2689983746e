package pack

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/structure"
)

// genGo writes a Go file of n functions, some of them long enough to be
// cut, all about the task's words.
func genGo(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("package x\n\nimport (\n\t\"fmt\"\n)\n\n")
	for i := 0; i < n; i++ {
		body := 1 + r.Intn(120)
		if r.Intn(5) == 0 {
			body = 200 + r.Intn(300)
		}
		fmt.Fprintf(&b, "// Token%d handles token expiry.\nfunc Token%d(a int) int {\n", i, i)
		for j := 0; j < body; j++ {
			fmt.Fprintf(&b, "\tfmt.Println(\"token expiry %d %d\", a) // auth check\n", i, j)
		}
		b.WriteString("\treturn a\n}\n")
		if r.Intn(2) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// genPy writes a Python file of n functions, with decorators, comments,
// blank lines and, when crlf, Windows line ends.
func genPy(r *rand.Rand, n int, crlf bool) string {
	var b strings.Builder
	b.WriteString("import os\nfrom a import (\n  b,\n  c,\n)\n\n")
	for i := 0; i < n; i++ {
		if r.Intn(2) == 0 {
			b.WriteString("@decorator\n# comment on token\n")
		}
		fmt.Fprintf(&b, "def token_expiry_%d(x):\n", i)
		if r.Intn(3) == 0 {
			// A docstring, long enough to be cut or not.
			b.WriteString(`    """Check the token's expiry.` + "\n")
			for j := range 10 + r.Intn(70) {
				if j%7 == 6 {
					b.WriteString("\n")
					continue
				}
				fmt.Fprintf(&b, "    token %d: when it expires, %s\n", j, strings.Repeat("y", r.Intn(40)))
			}
			b.WriteString(`    """` + "\n")
		}
		body := 1 + r.Intn(60)
		if r.Intn(6) == 0 {
			body = 150 + r.Intn(200)
		}
		for j := 0; j < body; j++ {
			if r.Intn(10) == 0 {
				b.WriteString("\n")
				continue
			}
			fmt.Fprintf(&b, "    x = x + %d  # expiry %s\n", j, strings.Repeat("z", r.Intn(30)))
		}
		if r.Intn(3) == 0 {
			b.WriteString("\n\n")
		}
	}
	s := b.String()
	if crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

var (
	markerRE    = regexp.MustCompile(`… lines (\d+)-(\d+) \((\d+) lines\) left out: over the budget`)
	omittedRE   = regexp.MustCompile(`^(\S+):(\d+)-(\d+)`)
	docMarkerRE = regexp.MustCompile(`(?m)^    … lines? (\d+)(?:-(\d+) \((\d+) lines\))? of the docstring left out`)
	blockRE     = regexp.MustCompile("(?s)### ([^\n]*)\n```[^\n]*\n(.*?)\n```\n")
)

// checkPack holds a pack to what it promises: within its budget and
// counted right; each range's lines in its text, no line twice; every
// unit cut to fit marked where it is cut, by a marker that leaves out a
// line at least, and named so in Included; no block called a whole file
// that is not; nothing Omitted named as cut.
func checkPack(t *testing.T, root string, p *Pack, budget int, tag string) {
	t.Helper()
	if n := CountTokens(p.Text); n > budget || n != p.Tokens {
		t.Errorf("%s: holds %d tokens, reports %d, budget %d", tag, n, p.Tokens, budget)
	}
	seen := map[string]bool{}
	for _, r := range p.Ranges {
		if r.End < r.Start || r.Start < 1 {
			t.Errorf("%s: range %+v", tag, r)
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, r.Path))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		if r.End > len(lines) {
			t.Errorf("%s: range %+v past the file's %d lines", tag, r, len(lines))
			continue
		}
		if want := strings.Join(lines[r.Start-1:r.End], "\n"); !strings.Contains(p.Text, want) {
			t.Errorf("%s: the lines of %+v are not in the pack", tag, r)
		}
		for l := r.Start; l <= r.End; l++ {
			k := fmt.Sprintf("%s:%d", r.Path, l)
			if seen[k] {
				t.Errorf("%s: line %s twice", tag, k)
			}
			seen[k] = true
		}
	}
	cut := 0
	for _, inc := range p.Included {
		if strings.Contains(inc, " elided)") {
			cut++
		}
	}
	markers := markerRE.FindAllStringSubmatch(p.Text, -1)
	if len(markers) != cut {
		t.Errorf("%s: %d markers of lines left out, %d units named as cut: %v", tag, len(markers), cut, p.Included)
	}
	for _, m := range markers {
		from, _ := strconv.Atoi(m[1])
		to, _ := strconv.Atoi(m[2])
		if m[3] == "0" || to < from {
			t.Errorf("%s: a marker that leaves out nothing: %s", tag, m[0])
		}
	}
	// A docstring's marker counts its lines right, and none of them is
	// shown. (The pack's blocks are of one file each, and these packs'
	// files are all Python; a marker's lines are the file's whose block
	// holds it.)
	for _, b := range blockRE.FindAllStringSubmatch(p.Text, -1) {
		path, _, _ := strings.Cut(b[1], ":")
		path, _, _ = strings.Cut(path, " (")
		for _, m := range docMarkerRE.FindAllStringSubmatch(b[2], -1) {
			from, _ := strconv.Atoi(m[1])
			to, n := from, 1
			if m[2] != "" {
				to, _ = strconv.Atoi(m[2])
				n, _ = strconv.Atoi(m[3])
			}
			if to < from || n != to-from+1 {
				t.Errorf("%s: a docstring's marker that counts wrong: %s", tag, m[0])
			}
			for l := from; l <= to; l++ {
				if seen[fmt.Sprintf("%s:%d", path, l)] {
					t.Errorf("%s: %s:%d shown, yet said to be left out: %s", tag, path, l, m[0])
					break
				}
			}
		}
	}
	for _, b := range blockRE.FindAllStringSubmatch(p.Text, -1) {
		if strings.HasSuffix(b[1], "(whole file)") && (markerRE.MatchString(b[2]) || docMarkerRE.MatchString(b[2])) {
			t.Errorf("%s: %q holds lines left out", tag, b[1])
		}
	}
	// Nothing of more lines than a block's context is listed as left out
	// while the pack shows it whole (a definition's signature, shown
	// above its body, among them).
	for _, o := range p.Omitted {
		m := omittedRE.FindStringSubmatch(o)
		if m == nil {
			continue
		}
		from, _ := strconv.Atoi(m[2])
		to, _ := strconv.Atoi(m[3])
		whole := to-from+1 > contextLines
		for l := from; l <= to && whole; l++ {
			whole = seen[fmt.Sprintf("%s:%d", m[1], l)]
		}
		if whole {
			t.Errorf("%s: listed as left out, yet shown: %s", tag, o)
		}
	}
	for _, o := range p.Omitted {
		if strings.Contains(o, "elided") {
			t.Errorf("%s: left out, yet named as cut: %s", tag, o)
		}
	}
}

// Random files of Go and Python, with and without the retrieval's spans,
// packed at budgets from a few lines to many files: every pack keeps its
// promises, and the same input packs the same.
func TestPackProperties(t *testing.T) {
	concepts := []hone.Concept{{Label: "token", Kind: "word", Weight: 1, Terms: []string{"token"}}, {Label: "expiry", Kind: "word", Weight: 0.8, Terms: []string{"expiri"}}}
	seeds := 40
	if testing.Short() {
		seeds = 12
	}
	for seed := range seeds {
		r := rand.New(rand.NewSource(int64(seed)))
		root := t.TempDir()
		res := &hone.Result{Task: "fix the token expiry bug in `token_expiry_3`", Concepts: concepts}
		for i := range 1 + r.Intn(4) {
			var name, src string
			if seed%2 == 0 {
				name, src = fmt.Sprintf("f%d.go", i), genGo(r, 1+r.Intn(6))
			} else {
				name, src = fmt.Sprintf("f%d.py", i), genPy(r, 1+r.Intn(8), r.Intn(3) == 0)
			}
			if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			var spans []hone.Span
			for range r.Intn(4) {
				s := 1 + r.Intn(strings.Count(src, "\n")+5)
				spans = append(spans, hone.Span{Start: s, End: s + r.Intn(200) - 20, Symbol: "x", Why: "match"})
			}
			res.Files = append(res.Files, hone.File{Path: name, Relevance: r.Float64(), Role: "target", Spans: spans})
			res.Ranking = append(res.Ranking, hone.Ranked{Path: name, Relevance: res.Files[i].Relevance})
		}
		for _, budget := range []int{30, 100, 200, 400, 700, 1000, 1500, 2000, 3000, 5000, 8000, 16000} {
			tag := fmt.Sprintf("seed %d, budget %d", seed, budget)
			p := Build(res, root, Options{Budget: budget})
			checkPack(t, root, p, budget, tag)
			if again := Build(res, root, Options{Budget: budget}); again.Text != p.Text {
				t.Errorf("%s: two packs of the same result differ", tag)
			}
		}
	}
}

// A file's units are worth nothing, not NaN, when none holds a letter or
// a digit: a NaN worth would compare false with every other.
func TestUnitsOfNoWordsWorthNothing(t *testing.T) {
	lines := strings.Split(strings.Repeat("----\n\n", 60), "\n")
	us := fileUnits(0, "sep.txt", structure.LanguageOfLines("sep.txt", lines), lines, nil, 0.9, concepts{}, unitWeights)
	if len(us) == 0 {
		t.Fatal("no units")
	}
	for _, u := range us {
		if math.IsNaN(u.worth) || u.worth != 0 {
			t.Errorf("lines %d-%d worth %v, want 0", u.from, u.to, u.worth)
		}
	}
}
