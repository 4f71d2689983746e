//go:build cgo

package structure

import (
	"embed"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The tree-sitter extractor: each grammar is run with a tags query (see
// queries/), whose captures name what a node is:
//
//	@name                 the name of the definition, reference or scope
//	@definition.KIND      a definition, spanning the whole node
//	@reference.call       a call site (also @reference.send)
//	@reference.KIND       any other reference: class, type, implementation...
//	@container            the explicit container of a definition (a Go receiver)
//	@scope                a named node that contains definitions without
//	                      being one (a Rust impl block)
//	@import               an import, turned into specifiers by the
//	                      grammar's import function
//
// Captures whose names start with "_" only serve predicates.

//go:embed queries/*.scm
var queryFiles embed.FS

// parseTimeout is ParseTimeout, shortened by tests.
var parseTimeout = ParseTimeout

// testHook, when set by a test, runs between the parse and the query.
var testHook func(lang string)

// exactParser is what Parser names: this build has tree-sitter.
const exactParser = ParserTreeSitter

// maxNameLen drops captured names longer than this (minified code, a
// capture gone wrong).
const maxNameLen = 256

// grammar is one tree-sitter language with its query, compiled on first use.
type grammar struct {
	name    string                // the language, as Language names it
	queries []string              // query files, concatenated
	lang    func() unsafe.Pointer // the binding's language function
	// imports turns an @import node into import specifiers.
	imports func(n *sitter.Node, src []byte, add func(string))

	once  sync.Once
	l     *sitter.Language
	q     *sitter.Query
	err   error
	caps  []capture
	idle  chan *worker // parsers and cursors ready for use
	count atomic.Int64 // workers alive, for tests
}

// worker is a parser with a query cursor: one file at a time.
type worker struct {
	p *sitter.Parser
	c *sitter.QueryCursor
}

func (w *worker) close() {
	w.c.Close()
	w.p.Close()
}

type capRole int

const (
	capIgnore capRole = iota
	capName
	capDef
	capCall
	capRef
	capContainer
	capScope
	capImport
)

type capture struct {
	role capRole
	kind string // the definition or reference kind
}

var grammars = map[string]*grammar{}

// grammarFor names the grammar for a file: the language, or tsx.
func grammarFor(p, lang string) *grammar {
	if lang == "typescript" && strings.EqualFold(path.Ext(p), ".tsx") {
		return grammars["tsx"]
	}
	return grammars[lang]
}

func init() {
	add := func(name string, queries []string, lang func() unsafe.Pointer, imports func(*sitter.Node, []byte, func(string))) {
		grammars[name] = &grammar{name: name, queries: queries, lang: lang, imports: imports}
	}
	add("go", []string{"go"}, tsgo.Language, importQuoted)
	add("python", []string{"python"}, tspython.Language, importPython)
	add("javascript", []string{"javascript"}, tsjs.Language, importQuoted)
	add("typescript", []string{"javascript", "typescript"}, tsts.LanguageTypescript, importQuoted)
	add("tsx", []string{"javascript", "typescript"}, tsts.LanguageTSX, importQuoted)
	add("java", []string{"java"}, tsjava.Language, importText)
	add("rust", []string{"rust"}, tsrust.Language, importRust)
	add("c", []string{"c"}, tsc.Language, importQuoted)
	add("cpp", []string{"cpp"}, tscpp.Language, importQuoted)
	add("ruby", []string{"ruby"}, tsruby.Language, importText)
	add("csharp", []string{"csharp"}, tscsharp.Language, importStatement)
	add("php", []string{"php"}, tsphp.LanguagePHP, importPHP)
	add("scala", []string{"scala"}, tsscala.Language, importStatement)
	add("kotlin", []string{"kotlin"}, tskotlin.Language, importStatement)
	add("shell", []string{"bash"}, tsbash.Language, importQuoted)
}

// TreeSitterLanguages lists the languages (as Language names them) that
// Extract parses with tree-sitter.
func TreeSitterLanguages() []string {
	var out []string
	for name := range grammars {
		if name != "tsx" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// load compiles the grammar's query, once.
func (g *grammar) load() error {
	g.once.Do(func() {
		var src strings.Builder
		for _, q := range g.queries {
			b, err := queryFiles.ReadFile("queries/" + q + "-tags.scm")
			if err != nil {
				g.err = err
				return
			}
			src.Write(b)
			src.WriteByte('\n')
		}
		g.l = sitter.NewLanguage(g.lang())
		q, qerr := sitter.NewQuery(g.l, src.String())
		if qerr != nil {
			g.err = fmt.Errorf("%s tags query: %s", g.name, qerr.Error())
			return
		}
		g.q = q
		for _, name := range q.CaptureNames() {
			g.caps = append(g.caps, parseCapture(name))
		}
		g.idle = make(chan *worker, runtime.GOMAXPROCS(0))
	})
	return g.err
}

func parseCapture(name string) capture {
	switch {
	case name == "name":
		return capture{role: capName}
	case name == "container":
		return capture{role: capContainer}
	case name == "scope":
		return capture{role: capScope}
	case name == "import":
		return capture{role: capImport}
	case name == "reference.call", name == "reference.send":
		return capture{role: capCall}
	case strings.HasPrefix(name, "reference."):
		return capture{role: capRef, kind: strings.TrimPrefix(name, "reference.")}
	case strings.HasPrefix(name, "definition."):
		kind := strings.TrimPrefix(name, "definition.")
		switch kind {
		case "object":
			kind = "class"
		case "property":
			kind = "field"
		}
		return capture{role: capDef, kind: kind}
	}
	return capture{role: capIgnore}
}

// get hands out an idle worker, or a new one.
func (g *grammar) get() (*worker, error) {
	select {
	case w := <-g.idle:
		return w, nil
	default:
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(g.l); err != nil {
		p.Close()
		return nil, err
	}
	g.count.Add(1)
	return &worker{p: p, c: sitter.NewQueryCursor()}, nil
}

// put returns a worker for reuse, or frees it when enough are idle.
func (g *grammar) put(w *worker) {
	select {
	case g.idle <- w:
	default:
		g.count.Add(-1)
		w.close()
	}
}

// extractTreeSitter outlines a file of a language with a grammar: with
// tree-sitter, or when it fails on the file with the fallback patterns and
// Outline.Err saying why. It reports false for a language without a
// grammar.
func extractTreeSitter(p string, src []byte) (Outline, bool) {
	lang := LanguageOf(p, unsafe.String(unsafe.SliceData(src), len(src))) // read, never kept
	g := grammarFor(p, lang)
	if g == nil {
		return Outline{}, false
	}
	o := Outline{Lang: lang, Parser: ParserTreeSitter}
	err := treeSitter(g, src, &o)
	if err == nil {
		stats.treeSitter.Add(1)
		if o.Err != "" {
			stats.syntaxErrors.Add(1)
		}
		return o, true
	}
	stats.fallback.Add(1)
	if _, ok := err.(errTimeout); ok {
		stats.timeouts.Add(1)
	}
	o = ExtractFallback(p, src)
	o.Err = err.Error()
	return o, true
}

// errTimeout marks a parse or query that ran out of time.
type errTimeout struct{ what string }

func (e errTimeout) Error() string {
	return fmt.Sprintf("tree-sitter: %s timed out after %s", e.what, parseTimeout)
}

// treeSitter outlines src with g. It recovers from a panic, reporting it as
// an error; on an error the outline is not to be used.
func treeSitter(g *grammar, src []byte, o *Outline) (err error) {
	if err := g.load(); err != nil {
		return err
	}
	if len(src) > MaxTreeSitterBytes {
		return fmt.Errorf("tree-sitter: %d bytes is over the %d-byte limit", len(src), MaxTreeSitterBytes)
	}
	w, err := g.get()
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			stats.panics.Add(1)
			err = fmt.Errorf("tree-sitter: panic: %v", r)
			// The worker may be in any state: free it, never reuse it.
			g.count.Add(-1)
			w.close()
			return
		}
		g.put(w)
	}()
	start := time.Now()
	// SetTimeoutMicros is deprecated in favour of ParseWithOptions and a
	// progress callback, but go-tree-sitter v0.25.0's ParseWithOptions
	// saves its options with pointer.Save and never releases them: every
	// parse leaks a map entry and a C allocation, about 90 bytes (18 MB
	// over 200,000 parses, measured), for the life of the process; the
	// fix, go-tree-sitter pull request #56, is not released. The timeout
	// is checked in C, with no call into Go. Move to the callback once a
	// release frees the options.
	//lint:ignore SA1019 the recommended ParseWithOptions leaks its options in go-tree-sitter v0.25.0 (see above)
	w.p.SetTimeoutMicros(uint64(parseTimeout / time.Microsecond))
	tree := w.p.Parse(src, nil)
	if tree == nil {
		// Timed out (or cancelled): the parser would resume this parse.
		w.p.Reset()
		return errTimeout{"parse"}
	}
	defer tree.Close()
	if testHook != nil {
		testHook(g.name)
	}
	left := parseTimeout - time.Since(start)
	if left <= 0 {
		return errTimeout{"parse"}
	}
	w.c.SetTimeoutMicros(uint64(left / time.Microsecond))
	root := tree.RootNode()
	if err := collect(g, w.c, root, src, o); err != nil {
		return err
	}
	if time.Since(start) >= parseTimeout {
		// The cursor stops silently when out of time: the outline may
		// be partial.
		return errTimeout{"query"}
	}
	if root.HasError() {
		o.Err = syntaxError(root)
	}
	return nil
}

// syntaxError describes the first error node under n.
func syntaxError(n *sitter.Node) string {
	for depth := 0; depth < 1000; depth++ {
		next := (*sitter.Node)(nil)
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c == nil {
				continue
			}
			if c.IsError() || c.IsMissing() {
				what := "syntax error"
				if c.IsMissing() {
					what = "missing " + c.Kind()
				}
				return fmt.Sprintf("%s at line %d", what, c.StartPosition().Row+1)
			}
			if c.HasError() {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return fmt.Sprintf("syntax error at line %d", n.StartPosition().Row+1)
}

// tsDef is a definition with the byte ranges that place it.
type tsDef struct {
	Def
	start, end uint // the definition node
	nameStart  uint
	pattern    uint
	explicit   bool // Container came from a @container capture
	scope      bool // a container only, not a definition
}

type tsRef struct {
	name    string
	kind    string // "" for calls
	line    int
	start   uint
	col     uint
	pattern uint
}

// collect runs g's query over the tree and fills o.
func collect(g *grammar, qc *sitter.QueryCursor, root *sitter.Node, src []byte, o *Outline) error {
	var defs []tsDef
	defAt := map[[3]uint]int{} // definition node and name start -> index in defs
	refAt := map[uint]int{}    // name start -> index in refs
	var refs []tsRef
	seenImport := map[string]bool{}
	addImport := func(s string) {
		if s != "" && !seenImport[s] {
			seenImport[s] = true
			o.Imports = append(o.Imports, s)
		}
	}
	text := func(n *sitter.Node) string {
		s, e := n.StartByte(), n.EndByte()
		if e > uint(len(src)) || s > e {
			return ""
		}
		return string(src[s:e])
	}
	matches := qc.Matches(g.q, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		var name, role, container *sitter.Node
		var rc capture
		for i := range m.Captures {
			c := &m.Captures[i]
			info := g.caps[c.Index]
			switch info.role {
			case capName:
				name = &c.Node
			case capContainer:
				container = &c.Node
			case capImport:
				g.imports(&c.Node, src, addImport)
			case capDef, capCall, capRef, capScope:
				role, rc = &c.Node, info
			}
		}
		if role == nil || name == nil {
			continue
		}
		nm := text(name)
		if i := strings.IndexByte(nm, '\n'); i >= 0 {
			nm = nm[:i]
		}
		nm = strings.TrimSpace(nm)
		if nm == "" || len(nm) > maxNameLen {
			continue
		}
		switch rc.role {
		case capDef, capScope:
			s, e := role.StartByte(), role.EndByte()
			key := [3]uint{s, e, name.StartByte()}
			d := tsDef{start: s, end: e, nameStart: key[2], pattern: m.PatternIndex, scope: rc.role == capScope}
			d.Name, d.Kind = nm, rc.kind
			d.Line, d.EndLine = lineRange(role)
			if container != nil {
				d.Container, d.explicit = text(container), true
			}
			if i, ok := defAt[key]; ok {
				// Several patterns matched the node: the first pattern
				// (the more specific) wins.
				if m.PatternIndex < defs[i].pattern {
					defs[i] = d
				}
				continue
			}
			defAt[key] = len(defs)
			defs = append(defs, d)
		case capCall, capRef:
			pos := name.StartPosition()
			r := tsRef{name: nm, kind: rc.kind, line: int(pos.Row) + 1, start: name.StartByte(), col: pos.Column, pattern: m.PatternIndex}
			if i, ok := refAt[r.start]; ok {
				if m.PatternIndex < refs[i].pattern {
					refs[i] = r
				}
				continue
			}
			refAt[r.start] = len(refs)
			refs = append(refs, r)
		}
	}
	o.Defs = finishDefs(g.name, defs)
	isDefName := map[uint]bool{}
	for _, d := range defs {
		isDefName[d.nameStart] = true
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].start < refs[j].start })
	for _, r := range refs {
		switch {
		case r.kind == "":
			o.Calls = append(o.Calls, Call{Name: r.name, Line: r.line})
		case !isDefName[r.start] && !(g.name == "go" && goPredeclared[r.name]):
			o.Refs = append(o.Refs, Ref{Name: r.name, Kind: r.kind, Line: r.line})
		}
	}
	return nil
}

// goPredeclared are Go's predeclared types: references to them lead nowhere.
var goPredeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "rune": true, "string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true,
}

// lineRange is the 1-based first and last line of n. A node that ends at
// the start of a line (after its newline) ends on the line before.
func lineRange(n *sitter.Node) (int, int) {
	s, e := n.StartPosition(), n.EndPosition()
	end := e.Row
	if e.Column == 0 && end > s.Row {
		end--
	}
	return int(s.Row) + 1, int(end) + 1
}

// classLike kinds make the functions right inside them methods.
var classLike = map[string]bool{"class": true, "interface": true, "type": true, "enum": true, "scope": true}

// finishDefs orders the definitions, sets each one's container (the
// innermost definition or scope around it, unless a capture named it) and
// drops the scopes.
func finishDefs(lang string, defs []tsDef) []Def {
	sort.SliceStable(defs, func(i, j int) bool {
		if defs[i].start != defs[j].start {
			return defs[i].start < defs[j].start
		}
		return defs[i].end > defs[j].end
	})
	var out []Def
	var stack []int // indexes of the enclosing definitions
	for i := range defs {
		d := &defs[i]
		for len(stack) > 0 && defs[stack[len(stack)-1]].end <= d.start {
			stack = stack[:len(stack)-1]
		}
		// A definition spanning exactly its parent's node (a JS variable
		// declarator and its function) is not inside it.
		for len(stack) > 0 && defs[stack[len(stack)-1]].start == d.start && defs[stack[len(stack)-1]].end == d.end {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			parent := &defs[stack[len(stack)-1]]
			if !parent.scope && !d.scope && parent.Name == d.Name && parent.Kind == d.Kind && parent.end == d.end && parent.Line == d.Line {
				// The function an assignment names for itself, on the
				// assignment's line (View.prototype.lookup = function
				// lookup(...) {...}): one definition, the assignment's,
				// not two. A function nested in one of its name, on a
				// line of its own, is its own.
				continue
			}
			if !d.explicit {
				d.Container = parent.Name
			}
			pk := parent.Kind
			if parent.scope {
				pk = "scope"
			}
			if d.Kind == "function" && classLike[pk] && lang != "go" {
				d.Kind = "method"
			}
		}
		stack = append(stack, i)
		if d.scope {
			continue
		}
		if lang == "python" && d.Kind == "variable" && !isConstName(d.Name) {
			continue
		}
		out = append(out, d.Def)
	}
	return out
}
