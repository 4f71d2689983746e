package walk

import (
	"fmt"
	"strings"
)

// Kind is a bit set describing what a file is, beyond being source code.
// The zero Kind means an ordinary file.
type Kind uint8

const (
	// Test marks test code and test data: *_test.go, test_*.py, *_test.py,
	// conftest.py, *.test.ts (and .js, .tsx, .jsx, ...), *.spec.*, *_spec.rb
	// and anything under a test/, tests/, __tests__/, testing/, spec/,
	// testdata/ or fixtures/ directory.
	Test Kind = 1 << iota
	// Vendor marks third-party code: anything under vendor/, node_modules/,
	// third_party/, third-party/, external/, bower_components/ or
	// site-packages/.
	Vendor
	// Generated marks machine-written files: generated-code names (*.pb.go,
	// *_pb2.py, *.generated.*, *.gen.go, *_generated.go, ...), minified assets
	// (*.min.js, *.min.css), lock files (go.sum, package-lock.json, ...),
	// anything under a dist/ directory (a package's built distribution),
	// content carrying a generated-code marker in its first KiB (such as
	// Go's "Code generated"
	// ... "DO NOT EDIT." line, an at-sign "generated" tag, or an opening
	// comment that says the file was generated and not to edit it; see
	// Classify),
	// and minified content (over 2 KiB with an average line length over
	// 300).
	Generated
	// Docs marks documentation: *.md, *.rst, *.txt, *.adoc, README-style
	// names without an extension, and anything under docs/ or doc/, or
	// among a forge's issue and merge-request templates
	// (.github/ISSUE_TEMPLATE/).
	Docs
	// Example marks example code: anything under examples/, example/,
	// samples/, sample/, demo/ or demos/.
	Example
	// Secret marks files that typically hold credentials: .env, .env.*,
	// *.pem, *.key, *.p12, *.pfx, id_rsa* and other SSH keys, credentials
	// files, .netrc, .npmrc, .pypirc, secrets.yaml and the like. Their
	// contents should not be indexed.
	Secret
	// Notice marks a file whose first KiB carries a copyright notice
	// ("Copyright", "©"): not a kind of file by itself, but with a
	// licence of its folder's own, another project's code
	// (index.Foreign).
	Notice
)

// kindNames are the names used by [Kind.String], in bit order.
var kindNames = [...]string{"test", "vendor", "generated", "docs", "example", "secret", "notice"}

// allKinds is the union of all defined kinds.
const allKinds = Kind(1<<len(kindNames) - 1)

// Has reports whether k contains every kind in f, as in k&f == f.
// For a single kind this is plain membership: k.Has(Test).
func (k Kind) Has(f Kind) bool { return k&f == f }

// String returns the names of the kinds in k, comma-separated in bit order,
// such as "test,vendor"; it returns "" for the zero Kind. Undefined bits are
// written in hexadecimal.
func (k Kind) String() string {
	if k == 0 {
		return ""
	}
	var b strings.Builder
	for i, name := range kindNames {
		if k&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(name)
		}
	}
	if rest := k &^ allKinds; rest != 0 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%#x", uint8(rest))
	}
	return b.String()
}
