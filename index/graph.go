package index

// Edge is a link from one file to another in the file graph.
type Edge struct {
	To   string // the other file
	Kind string // "import" or "call"
	Name string // the definition called, for calls
}

// MaxDefiners: a name defined in more files than this is too common to
// say which of them a call means, and makes no edge.
const MaxDefiners = 3

// Edges are a file's links to other files: the files it imports (resolved
// per language) and the files defining what it calls. The graph is not a
// table of its own: it is the join of what the index keeps per file (its
// imports and calls, and the definitions table), so it stays exact as
// files change, with no edge to recompute. Callers must check Err: a read
// of the definitions that failed leaves edges out.
func (ix *Index) Edges(d *Doc) []Edge {
	var out []Edge
	seen := map[string]bool{}
	for _, p := range ix.Imports(d) {
		if !seen["import "+p] {
			seen["import "+p] = true
			out = append(out, Edge{To: p, Kind: "import"})
		}
	}
	// What the file defines itself makes no edge: only the rest is
	// looked up, each name a read of the definitions.
	calls := d.CallsOut()
	defs := ix.DefinersOf(calls)
	for _, name := range calls {
		ds := defs[name]
		if len(ds) == 0 || len(ds) > MaxDefiners {
			continue
		}
		for _, e := range ds {
			if !SameFamily(d.Lang, e.Lang) {
				continue // a Go main is not what a C file calls
			}
			if e.Path != d.Path && !seen["call "+name+" "+e.Path] {
				seen["call "+name+" "+e.Path] = true
				out = append(out, Edge{To: e.Path, Kind: "call", Name: name})
			}
		}
	}
	return out
}

// family groups languages that call into each other's definitions.
var family = map[string]string{
	"c": "c", "cpp": "c",
	"javascript": "js", "typescript": "js", "vue": "js", "svelte": "js",
	"java": "jvm", "kotlin": "jvm", "scala": "jvm",
}

// SameFamily reports whether code in language a can call definitions in
// language b, languages as structure.Language names them: its own, C and
// C++ each other's, the JavaScript family's and the JVM's. A name a CSS
// file calls (var) is no call into Python, though a Python file defines
// it.
func SameFamily(a, b string) bool {
	if a == b {
		return true
	}
	fa, fb := family[a], family[b]
	return fa != "" && fa == fb
}
