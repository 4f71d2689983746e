//go:build !cgo

package structure

// A build without cgo has no tree-sitter, whose grammars are C code: Extract
// outlines every file with the fallback patterns, as a cgo build does a
// language without a grammar.

// exactParser is what Parser names: this build has the patterns only.
const exactParser = "line patterns"

// TreeSitterLanguages lists the languages (as Language names them) that
// Extract parses with tree-sitter: none in a build without cgo.
func TreeSitterLanguages() []string { return nil }

// extractTreeSitter reports false: no language has a grammar here.
func extractTreeSitter(string, []byte) (Outline, bool) { return Outline{}, false }
