package retrieve

import (
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/lexicon"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// conceptKind orders the evidence a task gives: a named identifier or path
// says far more than a prose word.
type conceptKind int

const (
	prose conceptKind = iota
	identifier
	filePath
)

var conceptKinds = [...]string{"word", "identifier", "path"}

func (k conceptKind) String() string { return conceptKinds[k] }

// kindOf reads a kind's name back; an unknown name is prose.
func kindOf(name string) conceptKind {
	for k, n := range conceptKinds {
		if n == name {
			return conceptKind(k)
		}
	}
	return prose
}

// alt is one way a concept shows in code: all its stems together.
type alt struct {
	stems    []string
	label    string
	discount float64 // 1 for the task's own words, less for synonyms and learned terms
	source   string  // "task", "glossary", "synonym", "vocabulary" (public code's), "thesaurus" (the repository's)
}

// concept is one thing the task is about, with the ways the code may say it.
type concept struct {
	label  string
	kind   conceptKind
	alts   []alt
	weight float64  // importance in 0..1, set against the index
	count  int      // mentions in the task
	files  []string // for filePath concepts: the repository files its paths name
	// For filePath concepts, each path the task writes with these stems,
	// in the order written: a trace's app/db/models/query.py and
	// app/db/models/sql/query.py are one concept, "query", and two
	// places in the trace.
	mentions []mention
}

// mention is one path as a task writes it, and the files it names.
type mention struct {
	path  string
	files []string
}

func (c *concept) hasStems(stems []string) bool {
	for _, a := range c.alts {
		if equalStems(a.stems, stems) {
			return true
		}
	}
	return false
}

func equalStems(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// genericWords are words of task prose that say what to do, not what about.
var genericWords = map[string]bool{
	"fix": true, "fixes": true, "fixed": true, "fixing": true, "bug": true, "bugs": true, "issue": true, "issues": true,
	"problem": true, "problems": true, "add": true, "adding": true, "added": true, "implement": true, "implementing": true,
	"implemented": true, "support": true, "make": true, "makes": true, "need": true, "needs": true, "want": true,
	"please": true, "should": true, "would": true, "could": true, "work": true, "works": true, "working": true,
	"use": true, "using": true, "used": true, "get": true, "gets": true, "try": true, "tried": true, "also": true,
	"like": true, "way": true, "thing": true, "things": true, "able": true, "currently": true, "expected": true,
	"actual": true, "behavior": true, "behaviour": true, "instead": true, "seems": true, "seem": true, "happen": true,
	"happens": true, "code": true, "change": true, "changes": true, "update": true, "improve": true, "allow": true,
	"example": true, "following": true, "result": true, "results": true, "case": true, "cases": true, "when": true,
	"which": true, "there": true, "here": true, "what": true, "where": true, "why": true, "how": true, "some": true,
	"any": true, "all": true, "one": true, "two": true, "first": true, "still": true, "just": true, "only": true,
	"even": true, "now": true, "well": true, "see": true, "look": true, "think": true, "know": true, "new": true,
	"current": true, "correct": true, "correctly": true, "wrong": true, "properly": true, "proper": true,
	"doesn": true, "don": true, "isn": true, "wasn": true, "aren": true, "won": true, "can": true, "cannot": true,
	"will": true, "may": true, "might": true, "must": true, "let": true, "lets": true, "etc": true,
}

var (
	codeIdent = lazyre.New(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?`)
	pathLike  = lazyre.New(`(?:[\w.-]+[/\\])+[\w.-]+\.[A-Za-z0-9]{1,8}\b|\b[\w-]+\.(?:go|py|ts|tsx|js|jsx|java|rs|rb|php|c|h|cc|cpp|hpp|cs|kt|swift|scala|sh|md|ya?ml|toml|json)\b`)
)

// isIdentifierLike: snake_case, camelCase, dotted paths, calls.
func isIdentifierLike(s string) bool {
	s = strings.TrimSuffix(s, "()")
	if len(s) < 3 {
		return false
	}
	if strings.Contains(s, "_") && strings.Trim(s, "_") != "" {
		return true
	}
	if strings.Contains(s, ".") {
		return true
	}
	// an upper-case letter after a lower-case one: camelCase or CamelCase.
	prevLower := false
	for _, r := range s {
		if unicode.IsUpper(r) && prevLower {
			return true
		}
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return false
}

// versionLine is a line of an environment report: a package and its
// version, as pip freeze, conda list and show_versions() print them
// ("numpy 1.19.2 py38h54aff64_0 conda-forge", "pandas: 1.1.0",
// "attrs==20.3.0"). The packages a user has installed say nothing of where
// the task lies, and a long list of them would drown the task's words.
var versionLine = lazyre.New(`(?m)^[ \t*-]*[A-Za-z_][\w.+-]*(?:[ \t]*(?::|==|>=|<=|~=)[ \t]*|[ \t]+)v?\d+(?:\.\w+)+\S*(?:[ \t]+\S+){0,3}[ \t\r]*$`)

// versionList is an environment report on one line: three or more
// packages and their versions, separated by commas, as a test runner's
// header and a bug report's "Versions:" line write them ("platform darwin
// -- Python 3.7.6, pytest-5.4.3, py-1.9.0, pluggy-0.13.0", "plugins:
// xdist-1.29.0, hypothesis-4.36.2, cov-2.8.1"). A name is two characters
// at least, so that x-1.5, y-2.5, z-3.5 stays an expression.
var versionList = lazyre.New(`(?m)^[^\n,]*?[A-Za-z][\w.+]+(?:-|[ \t]+v?)\d+(?:\.\w+)+[^\n,]*(?:,[ \t]*[A-Za-z][\w.+-]+?(?:-|[ \t]+v?)\d+(?:\.\w+)+[^\n,]*){2,}$`)

// sessionLine is a line of the header that pytest prints before its
// results, which bug reports paste whole: where it ran (rootdir,
// cachedir, configfile, inifile) and, from the hypothesis plugin, its
// profile. The user's folders and settings say nothing of where the task
// lies.
var sessionLine = lazyre.New(`(?m)^(?:rootdir|cachedir|configfile|inifile): .*$|^hypothesis profile '.*$`)

// templateHeading is a heading of an issue template, GitHub's own bug
// report and feature request and their common variants ("**Describe the
// bug**", "## Expected behavior", "Desktop (please complete the following
// information):"), alone on its line, and templatePlaceholder an example
// the template left in an answer ("[e.g. iOS]"). Their words are the
// template's, not the author's: "reproduce" and "context" are in every
// such task.
var (
	templateHeading = lazyre.New(`(?mi)^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:` +
		`describe the bug|bug description|(?:steps )?to reproduce(?: the behaviou?r)?|steps to reproduce|reproduction steps|` +
		`expected behaviou?r|actual behaviou?r|current behaviou?r|screenshots?|additional context|` +
		`environment|desktop|smartphone|system info(?:rmation)?|versions?|` +
		`is your feature request related to a problem\?(?: please describe\.?)?|describe the solution you'd like|` +
		`describe alternatives you've considered)` +
		`[ \t]*(?:\(please complete the following information\))?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*\r?$`)
	templatePlaceholder = lazyre.New(`\[e\.g\.[^\]\n]*\]`)
	// environmentItem is an answer of a template's environment section:
	// a bullet naming the system, the browser or a version ("- OS: macOS",
	// "- tool version: 1.7rc1", "* Browser: chrome").
	environmentItem = lazyre.New(`(?mi)^[ \t]*[-*][ \t]*(?:os|operating system|browser|device|platform|version|[\w.+-]+ version|os and version)[ \t]*(?:\[[^\]\n]*\])?[ \t]*:.*$`)
)

// htmlComment is text an issue form hides from its readers: the
// template's instructions ("please fill out the form").
var htmlComment = lazyre.New(`(?s)<!--.*?-->`)

// cleanTask drops what a task's author did not write about the task: an
// issue template's hidden instructions, headings and placeholders, and
// environment reports. It first folds full-width letters, digits and
// signs to the ASCII they stand for, as a Chinese or Japanese input
// method types them (ＲｏｕｔｅｒＧｒｏｕｐ is RouterGroup, and the
// ideographic space a space), for code writes the ASCII.
func cleanTask(task string) string {
	task = width.Fold.String(task)
	task = htmlComment().ReplaceAllString(task, "")
	for _, re := range []*regexp.Regexp{versionLine(), versionList(), sessionLine(), templateHeading(), templatePlaceholder(), environmentItem()} {
		task = re.ReplaceAllString(task, "")
	}
	return task
}

// SearchWords are a keyword query's terms, as search_code searches them:
// its words, full-width letters folded to ASCII, and the English of its
// Chinese words (路由 is route), the glossary's first sense as much as a
// word of the query, the others at 0.8. It returns the query folded too,
// for the names it writes as code.
func SearchWords(query string) (string, []index.QueryTerm) {
	query = width.Fold.String(query)
	weight := map[string]float64{}
	for _, t := range index.Words(query) {
		weight[t.Stem] = t.Weight
	}
	for _, alts := range lexicon.TranslateAll(query) {
		for i, en := range alts {
			w := 1.0
			if i > 0 {
				w = 0.8
			}
			for _, t := range index.Words(en) {
				weight[t.Stem] = max(weight[t.Stem], w*t.Weight)
			}
		}
	}
	terms := make([]index.QueryTerm, 0, len(weight))
	for st, w := range weight {
		terms = append(terms, index.QueryTerm{Stem: st, Weight: w})
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i].Stem < terms[j].Stem })
	return query, terms
}

// HasSearchTerms reports whether a task has something the loop could search
// for, whatever the repository: a path (a.c), a word or name of two
// letters or more that is not a stop word nor a number, or a word of a
// script without spaces (中文). A task it refuses has no concepts in any
// index; one it passes may still have none (a word no file holds).
func HasSearchTerms(task string) bool {
	if pathLike().MatchString(task) {
		return true
	}
	found := false
	tokenize.EachShort(task, func(t tokenize.Token) {
		switch {
		case found:
		case !utf8.ValidString(t.Text) || t.Text == "":
		case t.Text[0] >= utf8.RuneSelf:
			found = true // a word of another script: the glossary's, or the code's
		case len(t.Text) >= 2 && !isNumber(t.Text) && (!t.Stop || tokenize.IsNameWord(t.Text)):
			found = true
		}
	})
	return found
}

// analyzeTask turns the task into concepts, weighted against the index.
func analyzeTask(task string, ix *index.Index) []*concept {
	byKey := map[string]*concept{}
	var order []*concept
	add := func(c *concept) {
		// One concept per stems: the first way the task says it (a path, an
		// identifier, then prose) is the strongest.
		key := strings.Join(c.alts[0].stems, " ")
		if old, ok := byKey[key]; ok {
			old.count++
			if old.kind == filePath && c.kind == filePath {
				if !slices.ContainsFunc(old.mentions, func(m mention) bool { return slices.Equal(m.files, c.files) }) {
					old.mentions = append(old.mentions, c.mentions...)
				}
				for _, f := range c.files {
					if !slices.Contains(old.files, f) {
						old.files = append(old.files, f)
					}
				}
			}
			return
		}
		c.count = 1
		byKey[key] = c
		order = append(order, c)
	}

	// File paths the task names, resolved to the repository's files by
	// their longest matching tail ("/venv/lib/.../app/core/base.py" is
	// app/core/base.py). Their folders' words are not prose.
	var entries []*index.Entry
	for _, at := range pathLike().FindAllStringIndex(task, -1) {
		m := task[at[0]:at[1]]
		if entries == nil {
			entries = ix.Entries()
		}
		absolute := absoluteAt(task, at[0])
		if in, ok := strings.CutPrefix("/"+m, ix.Root+"/"); absolute && ok {
			// The repository's own path on this machine: the rest names
			// its file.
			m, absolute = in, false
		}
		files := resolvePath(m, absolute, entries)
		base := path.Base(slashed(m))
		stems := stemsOf(strings.TrimSuffix(base, path.Ext(base)))
		if len(stems) == 0 && len(files) == 0 {
			continue
		}
		label := m
		if len(files) == 1 {
			label = files[0]
		}
		c := &concept{label: label, kind: filePath, files: files, mentions: []mention{{path: m, files: files}}, alts: []alt{{stems: stems, label: base, discount: 1, source: "task"}}}
		if len(stems) == 0 {
			c.alts[0].stems = []string{strings.ToLower(base)}
		}
		add(c)
	}
	task = pathLike().ReplaceAllString(task, " ")

	// Identifiers: in backticks, in code blocks, or shaped like code.
	seenIdent := map[string]bool{}
	addIdent := func(s string, code bool) {
		s = strings.TrimSuffix(strings.Trim(s, "`'\"(),.:;"), "()")
		if s == "" || seenIdent[s] {
			return
		}
		seenIdent[s] = true
		// A dotted name counts by its parts: module.Class.method.
		parts := strings.Split(s, ".")
		for _, p := range parts {
			if p == "" || !code && !isIdentifierLike(p) && len(parts) == 1 {
				continue
			}
			if code && len(parts) == 1 && codeNoiseNames[p] {
				continue
			}
			if len(p) < 3 || tokenize.IsStopWord(strings.ToLower(p)) {
				continue
			}
			whole := wholeStem(p)
			split := stemsOf(p)
			c := &concept{label: p, kind: identifier, alts: []alt{{stems: []string{whole}, label: p, discount: 1, source: "task"}}}
			if len(split) > 1 {
				c.alts = append(c.alts, alt{stems: split, label: p, discount: splitDiscount, source: "task"})
			}
			add(c)
		}
	}
	for _, m := range quotedRuns(task, "`", 1, 120, -1) {
		for _, id := range codeIdent().FindAllString(m, -1) {
			if isIdentifierLike(id) || len(id) >= 4 {
				addIdent(id, true)
			}
		}
	}
	// In code the task quotes, what it calls and imports is code too,
	// however plainly named: Mod(x, 2), from pkg import thing.
	for _, name := range codeBlockNames(task) {
		addIdent(name, true)
	}
	for _, id := range codeIdent().FindAllString(task, -1) {
		if isIdentifierLike(id) {
			addIdent(id, false)
		}
	}

	// Prose: words, with Chinese translated through the glossary. A name
	// word (import, include, export) is a word where prose says it, and
	// the keyword where the task's code writes it: from x import y.
	var words []string
	keyword := map[int]bool{}
	for _, at := range codeKeywords(task) {
		keyword[at] = true
	}
	tokenize.Each(task, func(t tokenize.Token) {
		if t.Whole {
			return
		}
		if keyword[t.Pos] {
			words = append(words, "")
			return
		}
		if isCJKWord(t.Text) {
			for _, alts := range lexicon.TranslateAll(t.Text) {
				if len(alts) == 0 {
					continue
				}
				words = append(words, "\x00"+strings.Join(alts, "|"))
			}
			return
		}
		words = append(words, t.Text)
	})
	phrased := addProse(words, add)
	addCompounds(task, ix, add, func(stem string) *concept { return byKey[stem] }, phrased)
	addLanguageCodes(order, ix)

	// Weigh each concept by how telling it is in this repository.
	n := float64(ix.N())
	idf1 := ix.IDF(1)
	for _, c := range order {
		df := bestDF(c, ix)
		spec := 0.0
		if df > 0 && idf1 > 0 {
			spec = ix.IDF(df) / idf1
		}
		base := weightProse
		switch {
		case c.kind == identifier:
			base = 1
		case c.kind == filePath && len(c.files) > 0:
			base = 1
		case c.kind == filePath:
			// A path outside the repository (a library's, the
			// interpreter's) says little of where in it the task lies.
			base = weightOutsidePath
		}
		c.weight = base * (specificityFloor + (1-specificityFloor)*spec) * (1 + repeatBonus*math.Log(float64(c.count)))
		if df == 0 {
			c.weight *= absentShare // nothing in the code says it (yet)
		}
		if n > 0 && float64(df)/n > commonFiles {
			c.weight *= commonShare // nearly every file says it
		}
		c.weight = math.Min(1, c.weight)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].weight > order[j].weight })
	if len(order) > maxConcepts {
		// The files the task names are kept whatever their weight: they
		// are its strongest evidence.
		kept := order[:0:0]
		for _, c := range order {
			if c.kind == filePath && len(c.files) > 0 && len(kept) < maxConcepts {
				kept = append(kept, c)
			}
		}
		for _, c := range order {
			if (c.kind != filePath || len(c.files) == 0) && len(kept) < maxConcepts {
				kept = append(kept, c)
			}
		}
		sort.SliceStable(kept, func(i, j int) bool { return kept[i].weight > kept[j].weight })
		order = kept
	}
	addVocabulary(order, ix)
	return order
}

const maxConcepts = 40

var (
	fence       = lazyre.New("(?s)```[^\n]*\n(.*?)```")
	promptLine  = lazyre.New(`(?m)^\s*(?:>>>|\.\.\.|In \[\d+\]:)[ \t](.*)$`)
	calledName  = lazyre.New(`([A-Za-z_][A-Za-z0-9_]*)\(`)
	importNames = lazyre.New(`(?m)^\s*from\s+[\w.]+\s+import\s+\(?([\w, \t]+)`)
	// keywordUse finds import, include and export written as code, the
	// keyword in one of its groups: C's #include and CSS's @import; a
	// line (after a prompt, a diff's sign with no space after it, or a
	// backtick) that opens with Python's from x import, with an import of
	// a module (import os, import a.b.C;, import x from 'y', import {),
	// with JavaScript's export of a declaration (export default, export
	// const, export {), or with an include of a file ('x.php', <x.h>) or
	// a Ruby module (include Comparable). Prose keeps the word: "import
	// fails when …", "- export crashes", "# import is slow", a call:
	// include().
	keywordUse = lazyre.New(`(?m)[#@](import|include)\b|#[ \t]+(import|include)[ \t]*[<"]|` +
		"(?:^|`)" + `[ \t]*(?:(?:>>>|\.\.\.|\$)[ \t]*|[+-])?(?:` +
		`from[ \t]+[\w.]+[ \t]+(import)\b|` +
		`(import)(?:[ \t]*[{(*"'<]|[ \t]+[\w.]+(?:[ \t]*(?:\r?$|[,;{*` + "`" + `])|[ \t]+(?:as|from)\b)|[ \t]*\r?$)|` +
		`(export)(?:[ \t]+(?:default|const|let|var|function|class|async|interface|type|enum|abstract|declare)\b|[ \t]*[{*])|` +
		`(include)(?:[ \t]*["'<]|[ \t]+[A-Z][\w:]*[ \t]*\r?$))`)
)

// codeKeywords are where the task writes import, include or export as
// code (keywordUse): the offsets of the keywords.
func codeKeywords(task string) []int {
	var out []int
	for _, at := range keywordUse().FindAllStringSubmatchIndex(task, -1) {
		for g := 2; g < len(at); g += 2 {
			if at[g] >= 0 {
				out = append(out, at[g])
			}
		}
	}
	return out
}

// codeBlockNames are the names a task's code calls and imports: in fenced
// blocks and interpreter prompt lines. Tracebacks are left out: their
// frames are evidence of their own.
func codeBlockNames(task string) []string {
	var code []string
	for _, m := range fence().FindAllStringSubmatch(task, -1) {
		if !strings.Contains(m[1], "Traceback (most recent call last)") {
			code = append(code, m[1])
		}
	}
	for _, m := range promptLine().FindAllStringSubmatch(task, -1) {
		code = append(code, m[1])
	}
	var out []string
	seen := map[string]bool{}
	keep := func(n string) {
		if len(n) >= 3 && !seen[n] && !codeNoiseNames[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, c := range code {
		for _, m := range importNames().FindAllStringSubmatch(c, -1) {
			for _, n := range strings.Split(m[1], ",") {
				if f := strings.Fields(n); len(f) > 0 {
					keep(f[0])
				}
			}
		}
		for _, m := range calledName().FindAllStringSubmatch(c, -1) {
			keep(m[1])
		}
	}
	return out
}

// codeNoiseNames are names every program calls: builtins and keywords of
// the common languages, and the plainest method names. Named plainly in a
// task's code, they say nothing of where the task lies.
var codeNoiseNames = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`print len range str int float list dict set tuple type isinstance issubclass open super
		repr min max sum abs sorted reversed enumerate zip map filter object bool getattr setattr hasattr delattr format
		round pow divmod hash iter next vars dir callable input eval exec compile bytes bytearray frozenset property
		staticmethod classmethod assert return lambda yield import from with while for if elif else not and def class
		pass raise try except finally global del console log printf println sprintf fmt func fn new make append main
		init get put run call test self cls this require exit quit help id all any`) {
		m[w] = true
	}
	return m
}()

// bestDF is how many files say the concept the way the task says it: its
// first form the code knows (an identifier as a whole before its parts, a
// word before its synonyms). A form of several stems counts the files of
// its rarest.
func bestDF(c *concept, ix *index.Index) int {
	for _, a := range c.alts {
		df := ix.N()
		for _, s := range a.stems {
			if d := ix.DF(s); d < df {
				df = d
			}
		}
		if df > 0 {
			return df
		}
	}
	return 0
}

// addLanguageCodes gives a language the task names ("the Bulgarian
// translation", 德语) the codes its locale files go by (bg.js, de.json),
// where a file of the repository is named for one: elsewhere a code is
// only two letters of some other word. A code that is a stop word (it,
// no) is searched too: the index keeps it in files' names and folders.
func addLanguageCodes(concepts []*concept, ix *index.Index) {
	for _, c := range concepts {
		if c.kind != prose {
			continue
		}
		for _, code := range lexicon.LanguageCodes(c.alts[0].label) {
			var st []string
			tokenize.Each(code, func(t tokenize.Token) {
				if !t.Whole {
					st = append(st, t.Stem)
				}
			})
			if len(st) != 1 || c.hasStems(st) || !namedFor(ix, st[0], strings.ToLower(code)) {
				continue
			}
			c.alts = append(c.alts, alt{stems: st, label: code, discount: translationDiscount, source: "glossary"})
		}
	}
}

// namedFor reports whether a file is named for a language's code, or lies
// in a folder named for it: among the files a search for its stem ranks
// first, which a name's match puts there, one whose path holds the code
// as a whole part of a name (see codeNames).
func namedFor(ix *index.Index, stem, code string) bool {
	for _, h := range ix.Run(index.Search{Terms: []index.QueryTerm{{Stem: stem, Weight: 1}}, Limit: namedForFiles}) {
		if codeNames(h.Entry.Path, code) {
			return true
		}
	}
	return false
}

// codeNames reports whether a path names a language by its code: the code
// is a part between separators of the file's name or of one of its two
// nearest folders' (it.js, pt-br.js, messages_fr.properties,
// locale/he/formats.py, locale/de/LC_MESSAGES/app.po), not a word of
// a name written in camelCase (isBetween, deepMerge), nor a folder far
// above the file (a Java package's de/, which holds all its files).
func codeNames(p, code string) bool {
	names := strings.Split(strings.ToLower(p), "/")
	names = names[max(0, len(names)-3):]
	for _, name := range names {
		parts := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
		if slices.Contains(parts, code) {
			return true
		}
	}
	return false
}

// namedForFiles is how many of a search's first files namedFor reads.
const namedForFiles = 10

// addProse makes concepts of prose words, joining the phrases the synonym
// table knows ("rate limit", and "sign in" or "out of memory", whose stop
// words must be there as written) into one concept.
func addProse(words []string, add func(*concept)) (phrased map[string]int) {
	phrased = map[string]int{}
	// A phrase is matched word by word: a stop word as it is written
	// ("=in"), any other by its stem.
	type phrase struct {
		text string
		keys []string
	}
	phrases := map[string][]phrase{} // the first word's key -> the phrases
	for _, p := range lexicon.Phrases() {
		ws := strings.Fields(strings.ToLower(p))
		if len(ws) < 2 {
			continue
		}
		keys := make([]string, len(ws))
		content := 0
		for i, w := range ws {
			if tokenize.IsStopWord(w) && !tokenize.IsNameWord(w) {
				keys[i] = "=" + w
				continue
			}
			keys[i] = tokenize.Stem(w)
			content++
		}
		if content > 0 {
			phrases[keys[0]] = append(phrases[keys[0]], phrase{strings.Join(ws, " "), keys})
		}
	}
	var stems, labels, raws []string
	for _, w := range words {
		if strings.HasPrefix(w, "\x00") {
			// a translated segment: its first English alternative names it.
			alts := strings.Split(w[1:], "|")
			st := stemsOf(alts[0])
			// nor does a phrase run across it.
			stems, labels, raws = append(stems, ""), append(labels, ""), append(raws, "")
			if len(st) == 0 || genericWords[alts[0]] {
				continue
			}
			c := &concept{label: alts[0], kind: prose, alts: []alt{{stems: st, label: alts[0], discount: 1, source: "glossary"}}}
			for _, a := range alts[1:] {
				if s := stemsOf(a); len(s) > 0 && !c.hasStems(s) {
					c.alts = append(c.alts, alt{stems: s, label: a, discount: translationDiscount, source: "glossary"})
				}
			}
			add(c)
			continue
		}
		raws = append(raws, strings.ToLower(w))
		if tokenize.IsStopWord(w) && !tokenize.IsNameWord(w) || genericWords[w] || len(w) < 2 || isNumber(w) {
			stems = append(stems, "")
			labels = append(labels, "")
			continue
		}
		stems = append(stems, tokenize.Stem(w))
		labels = append(labels, w)
	}
	matches := func(i int, keys []string) bool {
		if i+len(keys) > len(stems) {
			return false
		}
		for j, k := range keys {
			if w, ok := strings.CutPrefix(k, "="); ok && raws[i+j] != w || !ok && stems[i+j] != k {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(stems); i++ {
		var cands []phrase
		if stems[i] != "" {
			cands = phrases[stems[i]]
		}
		if raws[i] != "" {
			cands = append(cands[:len(cands):len(cands)], phrases["="+raws[i]]...)
		}
		// The first phrase that matches, or one the task writes as the
		// table does ("time out", not "timed out").
		var ph *phrase
		for k := range cands {
			p := &cands[k]
			if matches(i, p.keys) && (ph == nil || p.text == strings.Join(raws[i:i+len(p.keys)], " ")) {
				ph = p
			}
		}
		if ph != nil {
			label := strings.Join(raws[i:i+len(ph.keys)], " ")
			// As the table writes it ("log out" for "logging out"), then
			// as the task does.
			c := &concept{label: label, kind: prose, alts: []alt{{stems: phraseStems(ph.text), label: label, discount: 1, source: "task"}}}
			if as := phraseStems(label); !c.hasStems(as) {
				c.alts = append(c.alts, alt{stems: as, label: label, discount: 1, source: "task"})
			}
			// A phrase with stop words is searched as code joins it
			// (signin, outofmemory), and by its other words too.
			if own := stemsOf(label); !c.hasStems(own) && len(own) > 0 {
				c.alts = append(c.alts, alt{stems: own, label: label, discount: splitDiscount, source: "task"})
			}
			add(c)
			phrased[label]++
			i += len(ph.keys) - 1
			continue
		}
		if stems[i] != "" && len(labels[i]) >= 3 {
			add(&concept{label: labels[i], kind: prose, alts: []alt{{stems: []string{stems[i]}, label: labels[i], discount: 1, source: "task"}}})
		}
	}
	return phrased
}

// addCompounds finds two words the task writes apart that the code may
// write as one: two plain words in a row, apart by spaces, or the two
// parts of a name a hyphen joins ("back-off"), whose joined stem is a
// term of the index that no more files hold than hold either word (where
// the code says it at all). A word and the particle after it ("back off"
// for backoff, "log in", "time out") make a concept of their own, which the
// particle alone never was, unless addProse made that mention a phrase
// of the synonym table (phrased); a word and another stop word ("element
// it") make nothing. Two words ("time stamp", "file name", "health
// check") whose joined form code in general writes as one word make it
// one more way the second word's concept shows in code: the concept is
// weighed by the word's own files, or by the joined form's where the code
// never says the word alone.
func addCompounds(task string, ix *index.Index, add func(*concept), conceptOf func(stem string) *concept, phrased map[string]int) {
	type word struct {
		text, stem string
		pos        int
		stop       bool
	}
	var ws []word
	parts := map[int]int{} // tokens at each position: an identifier's parts share one
	tokenize.Each(task, func(t tokenize.Token) {
		parts[t.Pos]++
		if !t.Whole {
			ws = append(ws, word{t.Text, t.Stem, t.Pos, t.Stop})
		}
	})
	ascii := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 'a' || c > 'z' {
				return false
			}
		}
		return true
	}
	word1 := func(w word) bool { return len(w.text) >= 2 && ascii(w.text) && !genericWords[w.text] }
	plain := func(w word) bool {
		return parts[w.pos] == 1 && w.pos+len(w.text) <= len(task) && strings.EqualFold(task[w.pos:w.pos+len(w.text)], w.text)
	}
	for i := 0; i+1 < len(ws); i++ {
		a, b := ws[i], ws[i+1]
		if !word1(a) || !word1(b) || a.stop && !particles[a.text] || b.stop && !particles[b.text] || a.stop && b.stop || len(a.text)+len(b.text) < 5 {
			continue
		}
		// "back off", or "back-off", which the tokenizer reads as one
		// name of two parts.
		hyphened := a.pos == b.pos && parts[a.pos] == 3 && len(task)-a.pos >= len(a.text)+1+len(b.text) &&
			strings.EqualFold(task[a.pos:a.pos+len(a.text)+1+len(b.text)], a.text+"-"+b.text)
		if !hyphened && (!plain(a) || !plain(b) || strings.Trim(task[a.pos+len(a.text):b.pos], " \t") != "") {
			continue
		}
		// A particle after its word is a phrasal verb, which code writes
		// as one word (back off, log in, time out); before it, in prose,
		// it is a preposition of what follows ("in form", "on line 5",
		// "by name"), so it joins only when hyphened ("on-line").
		if a.stop && !hyphened {
			continue
		}
		stem := tokenize.Stem(a.text + b.text)
		if stem == a.stem || stem == b.stem {
			continue
		}
		df := ix.DF(stem)
		rarer := func(w word) bool {
			d := ix.DF(w.stem)
			return w.stop || d == 0 || df <= d
		}
		if df == 0 || !rarer(a) || !rarer(b) {
			continue
		}
		joined := alt{stems: []string{stem}, label: a.text + b.text, discount: 1, source: "task"}
		if a.stop || b.stop {
			if label := a.text + " " + b.text; phrased[label] > 0 {
				phrased[label]-- // addProse made this mention a phrase
				continue
			}
			add(&concept{label: a.text + " " + b.text, kind: prose, alts: []alt{joined}})
			continue
		}
		// Two words join where code in general writes them as one word
		// (the general vocabulary or the synonym table knows it):
		// timestamp, filename, but not cssQuery, a name some repository
		// gave one parameter.
		known := len(lexicon.Associated(stem)) > 0 || len(lexicon.Synonyms(a.text+b.text)) > 0
		if c := conceptOf(b.stem); known && c != nil && c.kind == prose && !c.hasStems(joined.stems) {
			c.alts = append(c.alts, joined)
		}
	}
}

// particles are the stop words that make one word with the word beside
// them: back off, log in, set up, time out, up load.
var particles = map[string]bool{
	"up": true, "down": true, "in": true, "out": true, "on": true, "off": true,
	"over": true, "by": true, "through": true,
}

// wholeStem is the stem the index gives an identifier as a whole, as the
// code writes it: its parts joined, without separators ("repr_instance"
// and "reprInstance" are both "reprinstanc"), or its only part
// ("_hookexec" is "hookexec").
func wholeStem(id string) string {
	whole, only, parts := "", "", 0
	tokenize.Each(id, func(t tokenize.Token) {
		if t.Whole {
			whole = t.Stem
			return
		}
		only = t.Stem
		parts++
	})
	switch {
	case whole != "":
		return whole
	case parts == 1:
		return only
	}
	return tokenize.Stem(strings.ToLower(id))
}

// stemsOf tokenizes s into the stems of its parts, stop words dropped but
// those that name a topic in a name (tokenize.IsNameWord).
func stemsOf(s string) []string {
	var out []string
	tokenize.Each(s, func(t tokenize.Token) {
		if t.Whole || t.Stop && !tokenize.IsNameWord(t.Text) {
			return
		}
		out = append(out, t.Stem)
	})
	return out
}

func isCJKWord(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// mentionsTests reports whether the task is about tests, so test files stay
// in the search: it says test, spec or fixture as a word of its own, or
// names a test (test_login, TestServeMux, testRefresh, UserServiceTest)
// or a test's file (auth_test.go, app.spec.ts); a part of another
// identifier is none (GridSpec, X_test, format_spec, pytest_configure).
func mentionsTests(task string) bool {
	return strings.Contains(task, "测试") || wordsAny(task, testWords) || testName().MatchString(task)
}

// testName matches a test's name or its file's, as a word of its own.
var testName = lazyre.New(`(?:^|[^\w$])(?:test_\w+|Test[A-Z0-9_]\w*|test[A-Z][a-z]\w*|[A-Z]\w*[a-z0-9]Tests?|[\w-]+_(?:test|spec)\.` + testExt + `|[\w-]+\.(?:test|spec)\.` + testExt + `)(?:[^\w$]|$)`)

// testExt: the extensions of the code files a test's file name ends with.
const testExt = `(?:go|py|rb|rs|js|jsx|mjs|cjs|ts|tsx|c|cc|cpp|h|java|kt|swift|cs|php|exs?|dart|scala)`

// testWords are the words that make a task about tests.
var testWords = []string{"test", "tests", "testing", "spec", "specs", "pytest", "unittest", "jest", "fixture", "fixtures"}

// slashed writes a path as the index does, with forward slashes, however
// the task wrote it (a Windows traceback's D:\env\app\models.py).
func slashed(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// resolvePath finds the repository files a path written in a task names:
// those with the longest tail of folders in common, at least the file name
// and its folder (or, for a path that is not absolute, the whole of it, or
// the file name alone when only one file has it: a traceback's
// /home/me/app/cli.py is the user's own file, not the repository's one
// cli.py).
func resolvePath(p string, absolute bool, entries []*index.Entry) []string {
	parts := strings.Split(strings.Trim(slashed(p), "./"), "/")
	best, bestLen := []string(nil), 0
	for _, e := range entries {
		// How many of the path's last parts the entry's path ends with,
		// read from its end without splitting it.
		n, rest := 0, e.Path
		for n < len(parts) {
			i := strings.LastIndexByte(rest, '/')
			if rest[i+1:] != parts[len(parts)-1-n] {
				break
			}
			n++
			if i < 0 {
				break
			}
			rest = rest[:i]
		}
		switch {
		case n == 0 || n < bestLen:
		case n > bestLen:
			best, bestLen = []string{e.Path}, n
		default:
			best = append(best, e.Path)
		}
	}
	if bestLen >= 2 || !absolute && (bestLen == len(parts) || len(best) == 1) {
		sort.Strings(best)
		return best
	}
	return nil
}

// absoluteAt reports whether the path the task gives at byte i is an
// absolute one, whose first separator the path's pattern leaves out:
// "/home/me/app.py", "~/app.py", `C:\app.py`; not a URL's "//host/…",
// nor "./app.py", whose dot the pattern takes.
func absoluteAt(task string, i int) bool {
	if i == 0 || task[i-1] != '/' && task[i-1] != '\\' {
		return false
	}
	if i == 1 {
		return true
	}
	switch b := task[i-2]; {
	case b == '/':
		return false // a URL's host
	case b == ':':
		// A drive's C:\ or C:/, not a URL's scheme (https://, taken above).
		return i >= 3 && (task[i-3]|0x20 >= 'a' && task[i-3]|0x20 <= 'z')
	case b == '~':
		return true
	case b == '_' || b == '-' || b == '.' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z':
		return false
	}
	return true
}

// wholeStems are the stems of an identifier's compound forms
// ("refreshSession" gives "refreshsession").
func wholeStems(s string) []string {
	var out []string
	tokenize.Each(s, func(t tokenize.Token) {
		if t.Whole {
			out = append(out, t.Stem)
		}
	})
	return out
}

// taskEvidence is what the task says beyond its concepts: the files it
// names by path (in order of mention), by dotted module path, and the
// messages it quotes.
type taskEvidence struct {
	paths    []string // repository files named by path, in order of mention
	lastPath string
	modules  map[string]bool
	messages [][]string // stems of each quoted message
	// definers of each identifier the task names, when few files define it
	definers map[string][]*index.Entry
	// members are the Class.member pairs the task names
	members map[[2]string]bool
	// title holds the stems of the task's first line, titleWords its
	// lower-cased words and titleIdents the identifiers it names
	title       []string
	titleWords  map[string]bool
	titleIdents map[string]bool
	// packages are folders the task names as dotted package paths
	packages []string
	// keys are the flags, kebab-case keys and codes the task names
	keys []string
}

// unindentedFrame: the frames of deepestFirstTrace written at the start
// of their line. A JavaScript frame's place holds a folder or ends in a
// file's extension (at v1.2.3:4:5 is prose), in parentheses after any
// words (Express's at Layer.handle [as handle_request] (…), a path with
// spaces) or bare; a Java frame may name its class loader and module
// before the class (java.base/, app//, loader/mod@9.0/) and its jar after
// the place (~[app.jar:1.0], as Spring's logs do, and Forge's {re:…}); a
// C# frame's path may hold spaces.
const unindentedFrame = `^at (?:[^\s(]+ ){0,2}(?:[^\s()]*[/\\][^\s()]*|[^\s()]*\.[A-Za-z]\w*):\d+:\d+\s*$` +
	`|^at [^()\n]+\((?:[^()\n]*[/\\][^()\n]*|[^()\n]*\.[A-Za-z]\w*):\d+:\d+\)\s*$` +
	`|^at (?:(?:[\w$.@-]+/)?[\w$.@-]*/)?[\w$.<>]+\([^\s()]+\.\w+:\d+\)(?:[ \t]*~?\[[^\]\n]*\])?(?:[ \t]*\{[^}\n]*\})?[ \t]*$` +
	`|^at [^\s(]+\([^)]*\) in .+:line \d+` +
	`|^\s*[\w$.<>/]*@\S+:\d+:\d+\s*$`

var (
	errorLine = lazyre.New(`(?m)^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Failure|Panic)\b:\s*(.{8,300})$`)
	// deepestFirstTrace: stack traces that print the deepest frame first:
	// JavaScript's frames (at f (file:line:col), at file:line:col, at
	// new F (file:line:col); Firefox's and Safari's f@file:line:col),
	// Java's (at a.B.f(B.java:12)) and C#'s (at A.B.F() in
	// C:\src\F.cs:line 12), indented or, pasted into an issue, not; Go's
	// goroutines. Unindented, a JavaScript frame's place holds a folder
	// or ends in a file's extension and has both a line and a column, so
	// that "at localhost:3000", "at 10:30" or "at v1.2.3:4:5" is prose.
	deepestFirstTrace = lazyre.New(`(?m)^\s+at \S|` + unindentedFrame + `|^goroutine \d+ \[`)
	// frameLine: a line of a deepest-first trace that names a place (Go's
	// file:line +0x12 under its function's line).
	frameLine = lazyre.New(`^\s+at \S|` + unindentedFrame + `|^\s+\S+:\d+(?: \+0x[0-9a-f]+)?\s*$`)
	dottedRef = lazyre.New(`\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){1,8}\b`)
)

// firstInFrame is where path is first named on a frame's line of a
// deepest-first trace (frameLine), or else at: a path the prose names
// before the trace is placed by its frame.
func firstInFrame(task, path string, at int) int {
	for i := 0; ; {
		k := strings.Index(task[i:], path)
		if k < 0 {
			return at
		}
		k += i
		i = k + len(path)
		if k > 0 && !strings.ContainsRune("/\\(\"' \t:@", rune(task[k-1])) {
			continue // the tail of a longer path: auth.ts in oauth.ts
		}
		from := strings.LastIndexByte(task[:k], '\n') + 1
		to := strings.IndexByte(task[k:], '\n')
		if to < 0 {
			to = len(task)
		} else {
			to += k
		}
		if frameLine().MatchString(strings.TrimRight(task[from:to], "\r")) {
			return k
		}
	}
}

// readEvidence finds the paths, module paths and messages of a task.
func readEvidence(task string, concepts []*concept, ix *index.Index) taskEvidence {
	ev := taskEvidence{modules: map[string]bool{}, keys: declaredKeys(task)}
	// Paths in order of mention.
	type at struct {
		pos   int
		files []string
	}
	// Python prints the deepest frame last; JavaScript, Java and Go print
	// it first. A path named in several frames is placed by its deepest.
	deepestFirst := deepestFirstTrace().MatchString(task) && !strings.Contains(task, "most recent call last")
	var named []at
	for _, c := range concepts {
		if c.kind != filePath {
			continue
		}
		for _, m := range c.mentions {
			if len(m.files) > 0 && len(m.files) <= 3 {
				pos := strings.LastIndex(task, m.path)
				if deepestFirst {
					// By its first frame; a path the prose alone names
					// after every frame's.
					pos = firstInFrame(task, m.path, len(task)+pos)
				}
				named = append(named, at{pos: pos, files: m.files})
			}
		}
	}
	// In mention order.
	sort.SliceStable(named, func(i, j int) bool { return named[i].pos < named[j].pos })
	for _, n := range named {
		ev.paths = append(ev.paths, n.files...)
	}
	// The deepest frame is the deepest in the code under work: a trace
	// that runs on into the reporter's test, an example or vendored code
	// passes through the frame that matters on its way there.
	for i := range named {
		n := named[len(named)-1-i]
		if deepestFirst {
			n = named[i]
		}
		if len(n.files) != 1 {
			continue
		}
		if ev.lastPath == "" {
			ev.lastPath = n.files[0]
		}
		if e := ix.Entry(n.files[0]); e != nil && e.Kind&(walk.Test|walk.Docs|walk.Example|walk.Vendor|walk.Generated) == 0 {
			ev.lastPath = n.files[0]
			break
		}
	}
	// Dotted module paths: a.b.c names a/b/c.py, a/b/c/__init__.py, or,
	// when c is a class or function, a/b.py.
	dotted := dottedRef().FindAllString(task, 80)
	var byStem map[string][]string
	for _, m := range dotted[:min(len(dotted), 40)] {
		parts := strings.Split(m, ".")
		if len(parts) < 2 {
			continue
		}
		if byStem == nil {
			byStem = map[string][]string{}
			for _, e := range ix.Entries() {
				p := strings.TrimSuffix(e.Path, path.Ext(e.Path))
				p = strings.TrimSuffix(p, "/__init__")
				p = strings.TrimSuffix(p, "/index")
				byStem[p] = append(byStem[p], e.Path)
			}
		}
		for k := len(parts); k >= 2; k-- {
			files := byStem[strings.Join(parts[:k], "/")]
			if len(files) > 0 && len(files) <= 2 {
				for _, f := range files {
					ev.modules[f] = true
					if b := path.Base(f); strings.HasPrefix(b, "__init__.") || strings.HasPrefix(b, "index.") {
						if dir := path.Dir(f); !slices.Contains(ev.packages, dir) {
							ev.packages = append(ev.packages, dir)
						}
					}
				}
				break
			}
		}
	}
	// Identifiers and the few files that define each; Class.member pairs.
	ev.definers = map[string][]*index.Entry{}
	ev.members = map[[2]string]bool{}
	var names []string
	for _, c := range concepts {
		if c.kind == identifier {
			names = append(names, c.label)
		}
	}
	for n, es := range ix.DefinersOf(names) {
		if len(es) > 0 && len(es) <= maxDefiners {
			ev.definers[n] = es
		}
	}
	for _, m := range dotted {
		parts := strings.Split(m, ".")
		for i := 0; i+1 < len(parts); i++ {
			ev.members[[2]string{parts[i], parts[i+1]}] = true
		}
	}
	// The first line: an issue's title.
	ev.titleWords, ev.titleIdents = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(task, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			seen := map[string]bool{} // a title of one long line has many
			for _, s := range stemsOf(line) {
				if !genericWords[s] && !seen[s] {
					seen[s] = true
					ev.title = append(ev.title, s)
				}
			}
			for _, w := range codeIdent().FindAllString(line, -1) {
				for _, part := range strings.Split(strings.TrimSuffix(w, "()"), ".") {
					if len(part) >= 3 {
						ev.titleWords[strings.ToLower(part)] = true
						if isIdentifierLike(part) {
							ev.titleIdents[part] = true
						}
					}
				}
			}
			break
		}
	}
	// Messages: quoted, or the text of an error line.
	add := func(s string) {
		if len(strings.Fields(s)) < 3 {
			return // a path or a name, not a message
		}
		st := stemsOf(s)
		if len(st) >= 3 {
			ev.messages = append(ev.messages, st)
		}
	}
	for _, m := range quotedRuns(task, `"'`, 12, 300, 20) {
		add(m)
	}
	for _, m := range errorLine().FindAllStringSubmatch(task, 20) {
		add(m[1])
	}
	return ev
}

// taskParse is the one reading of the task that every stage works from.
// It is made once, before the first cycle, and never changed.
type taskParse struct {
	// clean is the task less what its author did not write about it: an
	// issue template's hidden instructions, environment reports; and
	// less its secrets, blanked. shown is the same with a placeholder for
	// each secret, what an evaluator reads.
	clean, shown string
	// concepts are what the task is about, weighted against the index,
	// most important first.
	concepts []*concept
	// evidence is what the task says beyond its concepts.
	evidence taskEvidence
	// The task asks for tests, vendored or generated code: they are
	// searched and not weighed down.
	aboutTests, aboutVendor, aboutGenerated bool
	// A search's query asks for documentation or examples (SearchPrior):
	// the ranking's task never sets them, and weighs those files with
	// its other signals.
	aboutDocs, aboutExamples bool
}

// parseTask reads a task against the repository's index.
func parseTask(task string, ix *index.Index) *taskParse {
	clean := cleanTask(task)
	// A secret pasted into a task is no word to search for: its bytes
	// become spaces before any stem is made of them, so that no term,
	// keyword or concept holds it in any form. An evaluator is shown the
	// task with a placeholder where it was.
	shown, n := redact.String(clean)
	if n > 0 {
		masked, _ := redact.Mask("", []byte(clean))
		clean = string(masked)
	}
	tp := &taskParse{clean: clean, shown: shown}
	tp.concepts = analyzeTask(clean, ix)
	tp.evidence = readEvidence(clean, tp.concepts, ix)
	tp.readAsks(clean)
	return tp
}

// readAsks reads whether a task, cleaned, asks for tests, vendored or
// generated code.
func (tp *taskParse) readAsks(clean string) {
	tp.aboutTests = mentionsTests(clean)
	tp.aboutVendor = wordsAny(clean, vendorWords)
	tp.aboutGenerated = wordsAny(clean, generatedWords)
}

// SearchPrior is what a plain search for query (MCP's search_code)
// multiplies each file's score by: the ranking's prior for a task of the
// query's words, which lowers tests, documentation, examples, vendored
// and generated code unless the query asks for them. (The ranking lowers
// documentation and examples whatever the task says, and weighs them
// with its other signals; a search has none.)
func SearchPrior(ix *index.Index, query string) func(*index.Entry) float64 {
	clean := cleanTask(query)
	tp := &taskParse{}
	tp.readAsks(clean)
	tp.aboutDocs = wordsAny(clean, docWords) || strings.Contains(clean, "文档")
	tp.aboutExamples = wordsAny(clean, exampleWords) || strings.Contains(clean, "示例") || strings.Contains(clean, "例子")
	return func(e *index.Entry) float64 { return prior(ix, e, tp) }
}

// The words that make a search's query ask for documentation or
// examples, written alone (docs, not getDocs or docId), in the singular
// or the plural.
var (
	docWords     = []string{"doc", "docs", "documentation", "readme", "guide", "guides", "manual", "manuals", "tutorial", "tutorials"}
	exampleWords = []string{"example", "examples", "sample", "samples", "demo", "demos"}
)

// wordsAny reports whether text holds one of words, lower-case, as a word
// of its own: not a part of an identifier.
func wordsAny(text string, words []string) bool {
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if slices.Contains(words, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// The words that make a task about vendored or generated code, written
// alone (node_modules, not getGenerated).
var (
	vendorWords    = []string{"vendor", "vendored", "third_party", "node_modules", "dependency", "dependencies"}
	generatedWords = []string{"generated", "codegen", "protobuf", "pb", "autogenerated"}
)

// Keys a task names that code declares as string literals: command-line
// flags (--collect-only), configuration and rule names in kebab case
// (ignore-paths, too-many-locals), and check and message codes
// (admin.E108, W0511, E501, TS2322). A file that holds one in quotes
// declares it: the option's parser, the rule's checker, the check's
// definition.
var (
	flagKey   = lazyre.New(`^--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)
	kebabKey  = lazyre.New(`^[a-z][a-z0-9]*(?:-[a-z0-9]+){1,5}$`)
	dottedKey = lazyre.New(`^[a-z_]+\.[A-Z]\d{3}$`)
	codeKey   = lazyre.New(`^[A-Z]{1,4}\d{3,5}$`)
)

// maxKeys is how many keys a task is read for.
const maxKeys = 12

// declaredKeys are the keys the task names, each once, in order. The task
// is cut into words of letters, digits and the characters of paths and
// names; a word that is a path, a URL or a dotted name as a whole is no
// key.
func declaredKeys(task string) []string {
	var out []string
	seen := map[string]bool{}
	quoted := map[string]bool{}
	for _, m := range quotedRuns(task, "`\"'", 1, 100, -1) {
		for _, w := range keyWords(m) {
			quoted[strings.TrimRight(w, ".-")] = true
		}
	}
	words := keyWords(task)
	for _, w := range words {
		if len(out) == maxKeys {
			break
		}
		w = strings.TrimRight(w, ".-")
		key := ""
		switch {
		case flagKey().MatchString(w), dottedKey().MatchString(w), codeKey().MatchString(w):
			key = w
		case len(w) >= 6 && kebabKey().MatchString(w) && (strings.Count(w, "-") >= 2 || quoted[w]):
			// Prose hyphenates words too (built-in, re-save): a key
			// of two parts counts only quoted, as code.
			key = w
		}
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	return out
}

// quotedRuns returns, left to right, the text between two of the same quote
// character (one of quotes) on one line, lo to hi characters long, n at
// most (every one when n < 0). It finds what the regular expression
// Q([^Q\n]{lo,hi})Q|... (an alternative for each quote Q) finds, without
// one: compiling the counted repetitions cost a process 8 ms.
func quotedRuns(s, quotes string, lo, hi, n int) []string {
	var out []string
	for i := 0; i < len(s) && (n < 0 || len(out) < n); i++ {
		q := s[i]
		if strings.IndexByte(quotes, q) < 0 {
			continue
		}
		// The text can hold no quote of its own kind: the next one
		// closes it, or none does.
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			continue
		}
		inner := s[i+1 : i+1+end]
		if strings.IndexByte(inner, '\n') >= 0 {
			continue
		}
		if k := utf8.RuneCountInString(inner); k < lo || k > hi {
			continue
		}
		out = append(out, inner)
		i += end + 1 // past the closing quote, as a match is
	}
	return out
}

// keyWords cuts text into words of letters, digits and the characters of
// paths and names.
func keyWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./\\", r))
	})
}
