package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// A vocabUnit is one pairing of prose with code: a definition's
// documentation with the parts of its name, or a commit's message with the
// identifier parts on the lines it changed. Words and terms are tokenize
// stems, each once.
type vocabUnit struct {
	Commit bool // a commit unit; else a doc unit
	Words  []string
	Terms  []string
}

// Limits on what one unit and one repository give.
const (
	vocabMaxBlob      = 512 << 10 // bytes: larger files are skipped
	vocabMaxFiles     = 25        // changed files: a commit touching more is passed over
	vocabDocWords     = 30        // prose words of a comment, at most
	vocabCommitWords  = 30        // prose words of a commit message, at most
	vocabCommitTerms  = 50        // identifier parts of a commit, at most: the rarest in the repository
	vocabCommitLines  = 4000      // changed lines read of one commit, at most
	vocabMaxLineBytes = 400       // longer changed lines (data, minified code) are skipped
	vocabMinWordLen   = 3
	vocabMinTermLen   = 2
)

// vocabSkip are the kinds of file that say nothing of a project's own code.
const vocabSkip = walk.Test | walk.Vendor | walk.Generated | walk.Docs | walk.Example | walk.Secret

// vocabSource reports whether p is a source file whose terms count.
func vocabSource(p string, head []byte) bool {
	return structure.IsCode(structure.Language(p)) && walk.Classify(p, head)&vocabSkip == 0
}

// mineVocabUnits reads the units of one repository at commit: doc units
// from the tree (files in a fixed pseudo-random order, up to maxDoc units
// from maxFiles files) and commit units from the history (the newest
// commits first, up to commits of them).
func mineVocabUnits(ctx context.Context, gitDir, commit string, maxFiles, maxDoc, commits int) ([]vocabUnit, error) {
	docs, err := vocabDocUnits(ctx, gitDir, commit, maxFiles, maxDoc)
	if err != nil {
		return nil, err
	}
	cs, err := vocabCommitUnits(ctx, gitDir, commit, commits)
	if err != nil {
		return nil, err
	}
	return append(docs, cs...), nil
}

// treeBlob is a source file of a tree.
type treeBlob struct {
	oid, path string
	key       uint64 // the order files are read in
}

// vocabDocUnits reads the tree's source files and pairs each documented
// definition's comment with its name.
func vocabDocUnits(ctx context.Context, gitDir, commit string, maxFiles, maxDoc int) ([]vocabUnit, error) {
	out, err := gitOutput(ctx, gitDir, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
	if err != nil {
		return nil, fmt.Errorf("list the files of %s at %s: %w", gitDir, commit, err)
	}
	var blobs []treeBlob
	for rec := range strings.SplitSeq(string(out), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" || f[0] == "120000" || f[0] == "160000" {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil || size > vocabMaxBlob || size == 0 || !vocabSource(p, nil) {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(p))
		blobs = append(blobs, treeBlob{oid: f[2], path: p, key: h.Sum64()})
	}
	// A fixed pseudo-random order: a sample of a large tree, not its first
	// directories.
	sort.Slice(blobs, func(i, j int) bool {
		if blobs[i].key != blobs[j].key {
			return blobs[i].key < blobs[j].key
		}
		return blobs[i].path < blobs[j].path
	})
	if maxFiles > 0 && len(blobs) > maxFiles {
		blobs = blobs[:maxFiles]
	}
	var units []vocabUnit
	err = catBlobs(ctx, gitDir, blobs, func(b treeBlob, src []byte) bool {
		if walk.IsBinary(src) || !vocabSource(b.path, src[:min(len(src), walk.HeadSize)]) {
			return true
		}
		units = append(units, fileDocUnits(b.path, src)...)
		return maxDoc <= 0 || len(units) < maxDoc
	})
	if err != nil {
		return nil, fmt.Errorf("read the files of %s at %s: %w", gitDir, commit, err)
	}
	if maxDoc > 0 && len(units) > maxDoc {
		units = units[:maxDoc]
	}
	return units, nil
}

// catBlobs streams the blobs' contents through one git cat-file --batch,
// in order, until fn returns false.
func catBlobs(ctx context.Context, gitDir string, blobs []treeBlob, fn func(treeBlob, []byte) bool) error {
	if len(blobs) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "--git-dir", gitDir, "cat-file", "--batch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, b := range blobs {
			if _, err := w.WriteString(b.oid + "\n"); err != nil {
				break
			}
		}
		w.Flush()
		stdin.Close()
	}()
	r := bufio.NewReaderSize(stdout, 1<<16)
	var readErr error
	stopped := false
	for _, b := range blobs {
		header, err := r.ReadString('\n')
		if err != nil {
			readErr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			continue // "<oid> missing"
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size < 0 {
			readErr = fmt.Errorf("git cat-file: bad header %q", strings.TrimSpace(header))
			break
		}
		buf := make([]byte, size+1)
		if _, err := io.ReadFull(r, buf); err != nil {
			readErr = fmt.Errorf("git cat-file: %w", err)
			break
		}
		if !fn(b, buf[:size]) {
			stopped = true
			break
		}
	}
	if stopped || readErr != nil {
		cancel()
		_ = cmd.Wait()
		return readErr
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// fileDocUnits pairs each documented definition of a file with its
// documentation: the comment block that ends on the line before it
// (decorators and attributes between them aside) or, in Python, its
// docstring.
func fileDocUnits(p string, src []byte) []vocabUnit {
	lang := structure.Language(p)
	spans := structure.CommentSpans(lang, src)
	if len(spans) == 0 {
		return nil
	}
	o := structure.Extract(p, src)
	if len(o.Defs) == 0 {
		return nil
	}
	lines := lineStarts(src)
	lineOf := func(off int) int { // 1-based
		return sort.Search(len(lines), func(i int) bool { return lines[i] > off })
	}
	// The span ending on each line, when a comment alone ends that line.
	endsOn := map[int]int{}
	for i, s := range spans {
		if s[1] <= s[0] {
			continue
		}
		endsOn[lineOf(s[1]-1)] = i
	}
	text := func(line int) string { // 1-based, without the newline
		if line < 1 || line > len(lines) {
			return ""
		}
		end := len(src)
		if line < len(lines) {
			end = lines[line] - 1
		}
		return string(src[lines[line-1]:max(end, lines[line-1])])
	}
	var units []vocabUnit
	for _, d := range o.Defs {
		if d.Kind == "section" || d.Kind == "module" || d.Line < 1 || d.Line > len(lines) {
			continue
		}
		terms := nameTerms(d.Name, d.Container)
		if len(terms) == 0 {
			continue
		}
		doc := ""
		if lang == "python" {
			doc = pythonDocstring(src, spans, lines[d.Line-1], lineOf, d)
		}
		if doc == "" {
			doc = commentBefore(src, spans, endsOn, lines, lineOf, text, d.Line, lang)
		}
		if doc == "" {
			continue
		}
		words := docWords(doc)
		if len(words) == 0 {
			continue
		}
		units = append(units, vocabUnit{Words: words, Terms: terms})
	}
	return units
}

// lineStarts returns the offset of each line's first byte.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// commentBefore returns the comment block that ends on the line before
// line (decorators and attributes skipped), or "".
func commentBefore(src []byte, spans [][2]int, endsOn map[int]int, lines []int, lineOf func(int) int, text func(int) string, line int, lang string) string {
	l := line - 1
	for k := 0; k < 8 && l >= 1; k++ {
		t := strings.TrimSpace(text(l))
		if strings.HasPrefix(t, "@") || (lang == "rust" && strings.HasPrefix(t, "#[")) {
			l--
			continue
		}
		break
	}
	i, ok := endsOn[l]
	if !ok {
		return ""
	}
	alone := func(s [2]int) bool { // nothing but a comment on its lines
		start := lines[lineOf(s[0])-1]
		if strings.TrimSpace(string(src[start:s[0]])) != "" {
			return false
		}
		end := bytes.IndexByte(src[s[1]:], '\n')
		if end < 0 {
			end = len(src) - s[1]
		}
		return strings.TrimSpace(string(src[s[1]:s[1]+end])) == ""
	}
	if !alone(spans[i]) {
		return ""
	}
	first := i
	for first > 0 && first-i < 60 && alone(spans[first-1]) && lineOf(spans[first-1][1]-1) >= lineOf(spans[first][0])-1 {
		first--
	}
	var b strings.Builder
	for _, s := range spans[first : i+1] {
		b.Write(src[s[0]:s[1]])
		b.WriteByte('\n')
	}
	return b.String()
}

// pythonDocstring returns the docstring of a Python definition: a
// triple-quoted string that is the first statement after its signature.
func pythonDocstring(src []byte, spans [][2]int, defStart int, lineOf func(int) int, d structure.Def) string {
	i := sort.Search(len(spans), func(i int) bool { return spans[i][0] > defStart })
	if i == len(spans) {
		return ""
	}
	s := spans[i]
	if s[0] < 3 || lineOf(s[0]) > min(d.EndLine, d.Line+15) {
		return ""
	}
	q := string(src[s[0]-3 : s[0]])
	if q != `"""` && q != `'''` {
		return ""
	}
	// The signature ends at the first ':' outside brackets; only white
	// space and comments may follow it before the docstring.
	between := src[defStart : s[0]-3]
	for len(between) > 0 && strings.ContainsRune("rRuUbBfF", rune(between[len(between)-1])) {
		between = between[:len(between)-1]
	}
	depth, colon := 0, -1
	for j, c := range between {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth == 0 {
				colon = j
			}
		}
		if colon >= 0 {
			break
		}
	}
	if colon < 0 {
		return ""
	}
	for line := range strings.SplitSeq(string(between[colon+1:]), "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			return ""
		}
	}
	return string(src[s[0]:s[1]])
}

// nameTerms are the stems of the parts of a definition's name and its
// container's.
func nameTerms(names ...string) []string {
	var out []string
	for _, n := range names {
		tokenize.Each(n, func(t tokenize.Token) {
			if !t.Whole && codeTerm(t.Text) && !slices.Contains(out, t.Stem) {
				out = append(out, t.Stem)
			}
		})
	}
	return out
}

// codeTerm reports whether an identifier part is worth a term: two or more
// ASCII letters and digits, not a stop word or keyword.
func codeTerm(s string) bool {
	if len(s) < vocabMinTermLen || tokenize.IsStopWord(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// docSection starts the part of a docstring that lists parameters, return
// values and examples: names, not prose.
func docSection(t string) bool {
	l := strings.ToLower(strings.TrimRight(t, ": "))
	switch l {
	case "args", "arguments", "parameters", "params", "param", "returns", "return", "raises", "yields",
		"example", "examples", "example usage", "usage", "notes", "note", "see also", "attributes",
		"keyword arguments", "other parameters", "warns", "references", "errors", "panics", "safety",
		"# examples", "# example", "# errors", "# panics", "# safety", "# arguments", "# returns":
		return true
	}
	for _, p := range []string{":param", ":type", ":return", ":rtype", ":raise", "@param", "@return", "@throws", "@exception", "@see", "@since", "@deprecated", "@type", "@example", "```", ">>>", "..."} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// commentMarkers are stripped from the start of a comment's lines.
var commentMarkers = []string{"///", "//!", "//", "/**", "/*!", "/*", "*/", "*", "#!", "#", "--", `"""`, "'''"}

// docWords are the prose words of a comment, up to vocabDocWords, from its
// start to its first section of parameters or examples. Licence headers
// and tool directives give none.
func docWords(doc string) []string {
	low := strings.ToLower(doc)
	if strings.Contains(low, "copyright") || strings.Contains(low, "licensed under") || strings.Contains(low, "spdx-license") {
		return nil
	}
	var words []string
	for line := range strings.SplitSeq(doc, "\n") {
		t := strings.TrimSpace(line)
		for again := true; again; {
			again = false
			for _, m := range commentMarkers {
				if strings.HasPrefix(t, m) {
					t, again = strings.TrimSpace(t[len(m):]), true
					break
				}
			}
		}
		t = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(t, "*/")), `"""`)
		if docSection(t) {
			break
		}
		if directive(t) {
			continue
		}
		words = proseWords(t, words, vocabDocWords)
		if len(words) >= vocabDocWords {
			break
		}
	}
	return words
}

// directive reports whether a comment line speaks to a tool, not a person.
func directive(t string) bool {
	l := strings.ToLower(t)
	for _, p := range []string{"eslint", "nolint", "noqa", "go:", "+build", "pylint:", "type:", "istanbul", "prettier-ignore", "@ts-", "tslint", "jshint", "pragma", "region", "endregion", "clang-format", "nosec", "coverage:", "fmt:", "mypy:", "isort:", "-*-", "!/"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// proseWords appends to words the stems of the prose words of one line,
// each once, until there are limit: ASCII words of vocabMinWordLen letters
// or more, not stop words, and not code: not a part of a compound
// identifier, not in backquotes, URLs, e-mail addresses or paths, and not
// joined to code punctuation ("x.y", "f(", "a=b", "--flag").
func proseWords(line string, words []string, limit int) []string {
	if len(words) >= limit {
		return words
	}
	line = blankCode(line)
	var toks []tokenize.Token
	compound := map[int]bool{}
	tokenize.Each(line, func(t tokenize.Token) {
		if t.Whole {
			compound[t.Pos] = true
		}
		toks = append(toks, t)
	})
	for _, t := range toks {
		if t.Whole || compound[t.Pos] || len(t.Text) < vocabMinWordLen || tokenize.IsStopWord(t.Text) {
			continue
		}
		end := t.Pos + len(t.Text)
		if end > len(line) || !asciiLetters(line[t.Pos:end]) || codeContext(line, t.Pos, end) {
			continue
		}
		if !slices.Contains(words, t.Stem) {
			words = append(words, t.Stem)
			if len(words) >= limit {
				break
			}
		}
	}
	return words
}

func asciiLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// codeContext reports whether the word line[start:end] is joined to code
// punctuation.
func codeContext(line string, start, end int) bool {
	if start > 0 && strings.IndexByte("._/\\$@#<=:&-~", line[start-1]) >= 0 {
		return true
	}
	if end < len(line) {
		c := line[end]
		next := byte(' ')
		if end+1 < len(line) {
			next = line[end+1]
		}
		switch {
		case strings.IndexByte("(_/\\=[<{", c) >= 0:
			return true
		case c == '.' && next != ' ' && next != '\t' && next != ')' && next != '"' && next != '\'':
			return true
		case c == ':' && next == ':':
			return true
		case c == '-' && next == '>':
			return true
		}
	}
	return false
}

// blankCode blanks out of a line of prose what is not prose: backquoted
// spans, and fields that are URLs, e-mail addresses, paths or code.
func blankCode(line string) string {
	b := []byte(line)
	in := false
	for i, c := range b {
		if c == '`' {
			in = !in
			b[i] = ' '
		} else if in {
			b[i] = ' '
		}
	}
	if in { // an unclosed quote: keep the text before it only
		return string(b)
	}
	start := -1
	for i := 0; i <= len(b); i++ {
		if i < len(b) && b[i] != ' ' && b[i] != '\t' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f := string(b[start:i])
			if strings.Contains(f, "://") || strings.HasPrefix(f, "www.") || strings.Contains(f, "@") ||
				strings.Count(f, "/") >= 2 || strings.Contains(f, "==") || strings.Contains(f, "=>") || strings.Contains(f, "->") {
				for j := start; j < i; j++ {
					b[j] = ' '
				}
			}
			start = -1
		}
	}
	return string(b)
}

// commitMessageWords are the prose words of a commit message, subject
// first: trailers, references, URLs, quoted code, code blocks and indented
// lines (logs, code) left out.
func commitMessageWords(msg string) []string {
	var words []string
	fence := false
	for i, line := range strings.Split(mineTask(msg, false), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			continue
		}
		if fence || t == "" || (i > 0 && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t"))) ||
			strings.HasPrefix(t, ">>>") || strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "diff ") ||
			strings.HasPrefix(strings.ToLower(t), "signed-off") || strings.HasPrefix(strings.ToLower(t), "co-authored") ||
			strings.HasPrefix(strings.ToLower(t), "this reverts commit") || strings.HasPrefix(t, "[skip") ||
			strings.HasPrefix(t, "(cherry picked") || trailerLike(t) {
			continue
		}
		words = proseWords(t, words, vocabCommitWords)
		if len(words) >= vocabCommitWords {
			break
		}
	}
	return words
}

// trailerLike reports whether a line looks like a "Key-Name: value"
// trailer, whatever the key.
func trailerLike(t string) bool {
	k, v, ok := strings.Cut(t, ": ")
	if !ok || k == "" || strings.TrimSpace(v) == "" || !strings.Contains(k, "-") {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

// vocabCommitUnits reads up to n commits, newest first, that are no merge,
// revert or mass change (over vocabMaxFiles files) and change some source
// file: each gives its message's prose words and the identifier parts on
// the lines it added or removed in source files, the vocabCommitTerms
// rarest in the repository's units (the most specific to the change:
// "if", "err" and "value" are on every diff). A root commit has no diff
// to read and gives none.
func vocabCommitUnits(ctx context.Context, gitDir, commit string, n int) ([]vocabUnit, error) {
	if n <= 0 {
		return nil, nil
	}
	log, err := gitOutput(ctx, gitDir, "log", "--no-merges", "--no-renames", "-n", strconv.Itoa(3*n),
		"--format=%x00%H%x01%B%x02", "--raw", "--no-abbrev", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("read the history of %s: %w", gitDir, err)
	}
	type cand struct {
		hash  string
		words []string
		blobs []string // of the source files it changed
	}
	var cands []cand
	var oids []string
	patterns := map[string]bool{}
	for rec := range strings.SplitSeq(string(log), "\x00") {
		head, files, ok := strings.Cut(rec, "\x02")
		if !ok {
			continue
		}
		hash, msg, ok := strings.Cut(head, "\x01")
		if !ok || strings.HasPrefix(msg, "Revert") || strings.HasPrefix(msg, "Merge ") {
			continue
		}
		c := cand{hash: hash}
		nfiles := 0
		for line := range strings.SplitSeq(files, "\n") {
			// :100644 100644 <old> <new> M<TAB>path
			meta, p, ok := strings.Cut(strings.TrimSpace(line), "\t")
			if !ok || !strings.HasPrefix(meta, ":") {
				continue
			}
			nfiles++
			f := strings.Fields(meta)
			if len(f) < 5 || !vocabSource(p, nil) {
				continue
			}
			for _, oid := range f[2:4] {
				if strings.Trim(oid, "0") != "" {
					c.blobs = append(c.blobs, oid)
				}
			}
			base := path.Base(p)
			if ext := path.Ext(base); ext != "" {
				patterns[":(glob,icase)**/*"+ext] = true
			} else {
				patterns[":(glob)**/"+base] = true
			}
		}
		if nfiles == 0 || nfiles > vocabMaxFiles || len(c.blobs) == 0 {
			continue
		}
		if c.words = commitMessageWords(msg); len(c.words) == 0 {
			continue
		}
		cands = append(cands, c)
		oids = append(oids, c.blobs...)
		if len(cands) >= n {
			break
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	// A mirror may lack some blobs (the largest): pass over the commits
	// whose source files it cannot show.
	missing, err := missingBlobs(ctx, gitDir, oids)
	if err != nil {
		return nil, fmt.Errorf("read the changes of %s: %w", gitDir, err)
	}
	var in strings.Builder
	kept := cands[:0]
	for _, c := range cands {
		if !slices.ContainsFunc(c.blobs, func(oid string) bool { return missing[oid] }) {
			in.WriteString(c.hash + "\n")
			kept = append(kept, c)
		}
	}
	cands = kept
	specs := make([]string, 0, len(patterns))
	for p := range patterns {
		specs = append(specs, p)
	}
	sort.Strings(specs)
	terms, err := commitTerms(ctx, gitDir, in.String(), specs)
	if err != nil {
		return nil, fmt.Errorf("read the changes of %s: %w", gitDir, err)
	}
	// How many commits each term is on, to keep the rarest.
	df := map[string]int{}
	for _, ts := range terms {
		for _, t := range ts {
			df[t]++
		}
	}
	var units []vocabUnit
	for _, c := range cands {
		ts := terms[c.hash]
		if len(ts) == 0 {
			continue
		}
		sort.Slice(ts, func(i, j int) bool {
			if df[ts[i]] != df[ts[j]] {
				return df[ts[i]] < df[ts[j]]
			}
			return ts[i] < ts[j]
		})
		if len(ts) > vocabCommitTerms {
			ts = ts[:vocabCommitTerms]
		}
		sort.Strings(ts)
		units = append(units, vocabUnit{Commit: true, Words: c.words, Terms: ts})
	}
	return units, nil
}

// missingBlobs returns which of the objects the git directory lacks.
func missingBlobs(ctx context.Context, gitDir string, oids []string) (map[string]bool, error) {
	cmd := exec.CommandContext(ctx, "git", "--git-dir", gitDir, "cat-file", "--batch-check")
	cmd.Stdin = strings.NewReader(strings.Join(oids, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	missing := map[string]bool{}
	for line := range strings.SplitSeq(string(out), "\n") {
		if oid, ok := strings.CutSuffix(line, " missing"); ok {
			missing[oid] = true
		}
	}
	return missing, nil
}

// commitTerms reads the diffs of the commits listed in stdin (one hash a
// line) and returns each commit's identifier-part stems on the lines it
// added or removed in source files, comment lines aside.
func commitTerms(ctx context.Context, gitDir, stdin string, pathspecs []string) (map[string][]string, error) {
	args := append([]string{"-c", "core.quotePath=false", "--git-dir", gitDir,
		"diff-tree", "--stdin", "-r", "-p", "--unified=0", "--no-renames", "--no-color", "--no-ext-diff", "--"}, pathspecs...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Stdin = strings.NewReader(stdin)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git diff-tree: %w", err)
	}
	out := map[string][]string{}
	var cur string
	seen := map[string]bool{}
	keep, lines, lang := false, 0, ""
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if isHash(line) {
			cur, keep, lines = line, false, 0
			clear(seen)
			continue
		}
		if strings.HasPrefix(line, "diff --git ") {
			p := diffPath(line)
			keep, lang = p != "" && vocabSource(p, nil), structure.Language(p)
			continue
		}
		if !keep || cur == "" || len(line) < 2 || len(line) > vocabMaxLineBytes ||
			(line[0] != '+' && line[0] != '-') || strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---") {
			continue
		}
		if lines++; lines > vocabCommitLines {
			continue
		}
		body, ok := codeOf(lang, strings.TrimSpace(line[1:]))
		if !ok {
			continue
		}
		tokenize.Each(body, func(t tokenize.Token) {
			if !t.Whole && codeTerm(t.Text) && !seen[t.Stem] {
				seen[t.Stem] = true
				out[cur] = append(out[cur], t.Stem)
			}
		})
	}
	scanErr := sc.Err()
	if scanErr != nil {
		_, _ = io.Copy(io.Discard, stdout)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git diff-tree: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, scanErr
}

func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// diffPath returns the path of a "diff --git a/p b/p" line.
func diffPath(line string) string {
	rest := strings.TrimPrefix(line, "diff --git ")
	if i := strings.Index(rest, " b/"); i >= 0 && strings.HasPrefix(rest, "a/") {
		return rest[i+3:]
	}
	return ""
}

// codeOf returns the code of a changed line, string literals blanked and
// a trailing comment cut, or false when the line is a comment or, by the
// look of it, prose (a docstring's line: four words or more and no code
// punctuation).
func codeOf(lang, t string) (string, bool) {
	if commentLine(t) || strings.Contains(t, ":class:`") || strings.Contains(t, ":meth:`") ||
		strings.Contains(t, ":func:`") || strings.Contains(t, ":attr:`") || strings.HasPrefix(t, ".. ") {
		return "", false
	}
	b := []byte(t)
	code := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := skipQuoted(b, i)
			if c == '\'' && (j == len(b) || lang == "rust" && b[i+1] != '\\' && utf8.RuneCount(b[i+1:j]) != 1) {
				continue // an apostrophe, a Rust lifetime
			}
			for k := i + 1; k < j && k < len(b); k++ {
				b[k] = ' '
			}
			i = j
		case c == '/' && i+1 < len(b) && (b[i+1] == '/' || b[i+1] == '*'),
			c == '#' && i > 0 && (b[i-1] == ' ' || b[i-1] == '\t'):
			b = b[:i]
		case strings.IndexByte("=(){}[];<>", c) >= 0:
			code = true
		}
	}
	s := strings.TrimSpace(string(b))
	if !code && !strings.HasSuffix(s, ":") && len(strings.Fields(s)) >= 4 {
		return "", false
	}
	return s, true
}

// skipQuoted returns the index of the quote closing the string literal
// that opens at b[i], or len(b) when the line ends first.
func skipQuoted(b []byte, i int) int {
	q := b[i]
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return len(b)
}

// commentLine reports whether a changed line is a comment alone.
func commentLine(t string) bool {
	for _, p := range []string{"//", "# ", "/*", "* ", "*/", "-- ", `"""`, "'''"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == "#" || t == "*"
}
