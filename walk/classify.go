package walk

import (
	"bytes"
	"path"
	"strings"
)

// HeadSize is how many leading bytes of a file Walk reads for binary
// detection and classification, and how many [IsBinary] and [Classify]
// examine.
const HeadSize = 8 << 10

const (
	// markerWindow is how far into a file generated-code markers are sought.
	markerWindow = 1 << 10
	// minifiedMinSize and minifiedLineLen define minified content: more than
	// minifiedMinSize bytes whose average line exceeds minifiedLineLen bytes.
	minifiedMinSize = 2 << 10
	minifiedLineLen = 300
)

// IsBinary reports whether content looks binary: whether its first HeadSize
// bytes contain a NUL byte. Text in UTF-16 or UTF-32 therefore counts as
// binary.
func IsBinary(head []byte) bool {
	return bytes.IndexByte(head[:min(len(head), HeadSize)], 0) >= 0
}

// Classify derives the Kind of a file from its slash-separated path relative
// to the repository root and, optionally, the first bytes of its content
// (head may be nil; only its first HeadSize bytes are examined).
//
// Path rules are case-insensitive and look at whole path elements, so
// latest/x.go is not a test and contest.go is not one either; but for
// the names whose case says they are tests (testByCase: FooTest.java,
// src/jvmTest/). Content rules
// add Generated for a generated-code marker in the first KiB or for minified
// content; because head is a prefix, "larger than 2 KiB" and the average line
// length are judged on head itself. Documentation files (*.md, *.txt, ...)
// are never judged minified, since prose is often written one paragraph per
// line. A copyright notice in the first KiB adds Notice.
func Classify(p string, head []byte) Kind {
	p = strings.TrimPrefix(p, "./")
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	cased := testByCase(dir, base)
	dir, base = strings.ToLower(dir), strings.ToLower(base)

	var k Kind
	if dir != "" {
		for elem := range strings.SplitSeq(dir, "/") {
			k |= dirKinds[elem] | compoundTestDir(elem)
		}
		// A C project keeps the libraries it builds with in deps/ or
		// dependencies/ at its root (h2o's deps/picotls, redis's
		// deps/jemalloc); GitHub's linguist counts them vendored. Below
		// the root such a folder is as likely the project's own code
		// about its dependencies.
		if top, _, _ := strings.Cut(dir, "/"); top == "deps" || top == "dependencies" {
			k |= Vendor
		}
	}
	bk, prose := baseKind(base)
	k |= bk | cased
	// kubectl's configuration holds its clients' keys.
	if base == "config" && (dir == ".kube" || strings.HasSuffix(dir, "/.kube")) {
		k |= Secret
	}

	if len(head) > 0 && !k.Has(Generated) {
		head = head[:min(len(head), HeadSize)]
		if hasGeneratedMarker(head) || (!prose && isMinified(head)) {
			k |= Generated
		}
	}
	if hasNotice(head) {
		k |= Notice
	}
	return k
}

// Copyright notices, as they are written.
var noticeMarks = [][]byte{[]byte("Copyright"), []byte("COPYRIGHT"), []byte("copyright"), []byte("©")}

// hasNotice reports whether the first KiB of head carries a copyright
// notice.
func hasNotice(head []byte) bool {
	h := head[:min(len(head), markerWindow)]
	for _, m := range noticeMarks {
		if bytes.Contains(h, m) {
			return true
		}
	}
	return false
}

// dirKinds maps a lower-case directory name to the kind it confers on
// everything below it.
var dirKinds = map[string]Kind{
	"test":          Test,
	"tests":         Test,
	"__tests__":     Test,
	"testing":       Test,
	"spec":          Test,
	"specs":         Test,
	"testdata":      Test,
	"fixtures":      Test,
	"__fixtures__":  Test,
	"__mocks__":     Test,
	"__snapshots__": Test,
	"e2e":           Test,
	"testsuite":     Test, // a project's test programs (testsuite/src/main/java)
	"testsuites":    Test,
	"regress":       Test, // regression tests as BSD and C projects keep them (regress/*.sh)

	"vendor":           Vendor,
	"node_modules":     Vendor,
	"third_party":      Vendor,
	"third-party":      Vendor,
	"thirdparty":       Vendor,
	"external":         Vendor,
	"bower_components": Vendor,
	"site-packages":    Vendor,
	"godeps":           Vendor, // Godeps/_workspace, vendoring before Go modules

	// A package's distribution, built from its sources (dist/lib.js,
	// dist/esm/index.js): GitHub's linguist counts dist/ as vendored.
	"dist": Generated,

	"docs":          Docs,
	"doc":           Docs,
	"documentation": Docs,
	// The forms of a forge's issues and merge requests are prose, whatever
	// their format (.github/ISSUE_TEMPLATE/bug.yml).
	"issue_template":          Docs,
	"issue_templates":         Docs,
	"pull_request_template":   Docs,
	"merge_request_templates": Docs,

	"examples": Example,
	"example":  Example,
	"samples":  Example,
	"sample":   Example,
	"demo":     Example,
	"demos":    Example,
}

// testClassExts are the languages whose test classes are named for it.
var testClassExts = map[string]bool{
	".java": true, ".kt": true, ".kts": true, ".scala": true, ".groovy": true,
	".cs": true, ".fs": true, ".vb": true, ".swift": true,
}

// testByCase tells a test by the case of its names, which Classify's
// others read lower-cased: a JVM, .NET or Swift test class is named for
// it (FooTest.java, FooTests.swift, FooTestCase.kt, and FooIT.java,
// Maven's integration tests: the names its test runners pick up), and
// Gradle keeps a source set's tests in a folder named for the set
// (src/jvmTest/, src/androidUnitTest/, src/integrationTest/).
func testByCase(dir, base string) Kind {
	ext := path.Ext(base)
	if stem := strings.TrimSuffix(base, ext); testClassExts[strings.ToLower(ext)] {
		for _, suffix := range []string{"Test", "Tests", "TestCase", "IT"} {
			if rest, ok := strings.CutSuffix(stem, suffix); ok && rest != "" {
				if c := rest[len(rest)-1]; c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
					return Test
				}
			}
		}
	}
	for elem := range strings.SplitSeq(dir, "/") {
		if rest, ok := strings.CutSuffix(elem, "Test"); ok && rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
			return Test // a source set: lower camel case ending in Test
		}
	}
	return 0
}

// compoundTestDir tells a test folder by a name of several words, one of
// which says so: tests_integration, integration-tests, e2e_utils. A single
// "test" does not: cmd/server-test is as likely a program as a test.
func compoundTestDir(elem string) Kind {
	if !strings.ContainsAny(elem, "_-.") {
		return 0
	}
	for w := range strings.FieldsFuncSeq(elem, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		switch w {
		case "tests", "e2e", "fixtures":
			return Test
		}
	}
	return 0
}

// Generated-code file names.
var (
	generatedNames = map[string]bool{
		"package-lock.json":   true,
		"npm-shrinkwrap.json": true,
		"yarn.lock":           true,
		"pnpm-lock.yaml":      true,
		"bun.lock":            true,
		"go.sum":              true,
		"go.work.sum":         true,
		"cargo.lock":          true,
		"poetry.lock":         true,
		"pipfile.lock":        true,
		"uv.lock":             true,
		"gemfile.lock":        true,
		"composer.lock":       true,
		"podfile.lock":        true,
		"pubspec.lock":        true,
		"mix.lock":            true,
		"flake.lock":          true,
		"packages.lock.json":  true,
	}
	generatedSuffixes = []string{
		".pb.go", ".pb.gw.go", ".pb.cc", ".pb.h",
		"_pb2.py", "_pb2.pyi", "_pb2_grpc.py",
		".gen.go", "_generated.go",
		".min.js", ".min.mjs", ".min.css",
		".js.map", ".css.map",
	}
)

// Documentation file names.
var (
	docExts = map[string]bool{
		".md": true, ".markdown": true, ".mdx": true,
		".rst": true, ".txt": true,
		".adoc": true, ".asciidoc": true,
	}
	// docNames are documentation files conventionally without an extension.
	docNames = map[string]bool{
		"readme": true, "license": true, "licence": true, "copying": true,
		"notice": true, "authors": true, "contributors": true,
		"contributing": true, "changelog": true, "changes": true,
		"history": true,
	}
)

// Secret-bearing file names.
var (
	secretNames = map[string]bool{
		".env":             true,
		"kubeconfig":       true,
		"credentials":      true,
		"credentials.json": true,
		".git-credentials": true,
		".netrc":           true,
		"_netrc":           true,
		".npmrc":           true,
		".pypirc":          true,
		".pgpass":          true,
		".htpasswd":        true,
		"secrets.yaml":     true,
		"secrets.yml":      true,
		"secrets.json":     true,
		"secrets.toml":     true,
	}
	secretExts = map[string]bool{
		".pem": true, ".key": true, ".p12": true, ".pfx": true,
		".jks": true, ".keystore": true, ".ppk": true,
		".credentials": true,
		// An env file by its extension (docker compose's env_file:
		// production.env, web.env).
		".env": true,
	}
	// An env file's variants: .env.local, .env-production, .env_local,
	// an editor's backup .env~.
	secretPrefixes = []string{".env.", ".env-", ".env_", ".env~", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}
)

// baseKind classifies a lower-case file name. prose reports whether the name
// denotes a documentation format, which is exempt from minified detection.
func baseKind(base string) (k Kind, prose bool) {
	ext := path.Ext(base)
	stem := base[:len(base)-len(ext)]

	switch {
	case strings.HasSuffix(stem, "_test"), // foo_test.go, foo_test.py, foo_test.cc
		strings.HasSuffix(stem, "_unittest"),             // foo_unittest.cc (googletest, Chromium)
		strings.HasSuffix(stem, "_spec"),                 // foo_spec.rb
		strings.HasSuffix(stem, ".test"),                 // foo.test.ts
		strings.HasSuffix(stem, ".test-d"),               // foo.test-d.ts, a type test (tsd, vitest)
		strings.Index(base, ".spec.") > 0,                // foo.spec.ts
		ext == ".py" && strings.HasPrefix(base, "test_"), // test_foo.py
		base == "conftest.py", base == "tests.py":
		k |= Test
	}

	if generatedNames[base] || strings.Contains(base, ".generated.") {
		k |= Generated
	} else {
		for _, s := range generatedSuffixes {
			if strings.HasSuffix(base, s) {
				k |= Generated
				break
			}
		}
	}

	if docExts[ext] {
		prose = true
		// Build and dependency manifests that happen to end in .txt.
		if ext != ".txt" || (base != "cmakelists.txt" && !strings.Contains(stem, "requirements") && stem != "constraints") {
			k |= Docs
		}
	} else if ext == "" && docNames[base] {
		k |= Docs
	}

	if secretNames[base] || secretExts[ext] {
		k |= Secret
	} else {
		for _, s := range secretPrefixes {
			if strings.HasPrefix(base, s) {
				k |= Secret
				break
			}
		}
	}
	return k, prose
}

// Generated-code markers. They are spelled in pieces so that this file does
// not itself look generated.
var (
	markerCodeGenerated = []byte("Code " + "generated")
	markerDoNotEdit     = []byte("DO NOT " + "EDIT")
	markerAtGenerated   = []byte("@" + "generated")
	markerAutoGenerated = []byte("<auto-" + "generated") // C# and other .NET tools
	// The banners of tools whose output is checked in beside its source:
	// a parser from a grammar (parser.y), a scanner from its rules
	// (lexer.l), bindings and stubs from an interface.
	markerTools = [][]byte{
		[]byte("A Bison parser, made by GNU " + "Bison"),
		[]byte("A lexical scanner generated by " + "flex"),
		[]byte("automatically generated by " + "SWIG"),
		[]byte("Autogenerated by Thrift " + "Compiler"),
		[]byte("Generated by the protocol buffer " + "compiler"),
	}
)

// hasGeneratedMarker reports whether the first KiB of head carries a
// generated-code marker: "Code generated ... DO NOT EDIT" on one line (the Go
// convention, in any comment syntax), "@generated", "<auto-generated", the
// banner of a tool that writes code (markerTools: Bison, flex, SWIG, Thrift,
// protoc), or a leading comment that says both that the file was generated
// and not to edit it (headerSaysGenerated).
func hasGeneratedMarker(head []byte) bool {
	h := head[:min(len(head), markerWindow)]
	if bytes.Contains(h, markerAtGenerated) || bytes.Contains(h, markerAutoGenerated) {
		return true
	}
	if headerSaysGenerated(h) {
		return true
	}
	for _, m := range markerTools {
		if bytes.Contains(h, m) {
			return true
		}
	}
	for {
		i := bytes.Index(h, markerCodeGenerated)
		if i < 0 {
			return false
		}
		h = h[i+len(markerCodeGenerated):]
		line := h
		if j := bytes.IndexAny(line, "\r\n"); j >= 0 {
			line = line[:j]
		}
		if bytes.Contains(line, markerDoNotEdit) {
			return true
		}
	}
}

// Words of a generated file's header, in pieces as the markers above are:
// those its lower-cased opening comment is searched for, and the word as
// a header writes it, which passes over the files that never do.
var (
	wordGenerated = []byte("gener" + "ated")
	phrasesNoEdit = [][]byte{
		[]byte("do not " + "edit"), []byte("don't " + "edit"), []byte("dont " + "edit"),
		[]byte("shouldn't " + "edit"), []byte("should not " + "edit"), []byte("must not " + "edit"),
		[]byte("never " + "edit"),
	}
	// The word in lower case after its first letter (Generated,
	// generated, autogenerated), or in capitals.
	wordEnerated = []byte("ener" + "ated")
	wordENERATED = []byte("ENER" + "ATED")
)

// headerSaysGenerated reports whether the comment lines that open h (blank
// lines between them) say that the file was generated and not to edit it,
// in whatever words its tool chose: "Generated: 2020-07-12 ... Please don't
// edit it directly" over an amalgamated header, "GENERATED BY `setup.py
// antlr`, DO NOT EDIT BY HAND". Only the opening comment counts: a script
// that writes such a header holds it in its code, below its first line.
func headerSaysGenerated(h []byte) bool {
	// Most files say nothing of it: they are passed over before their
	// header is read.
	if !bytes.Contains(h, wordEnerated) && !bytes.Contains(h, wordENERATED) {
		return false
	}
	var block []byte
	for len(h) > 0 {
		line := h
		if i := bytes.IndexAny(h, "\r\n"); i >= 0 {
			line, h = h[:i], h[i+1:]
		} else {
			h = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if !isCommentLine(t) {
			break
		}
		block = append(append(block, bytes.ToLower(t)...), ' ')
	}
	if !bytes.Contains(block, wordGenerated) {
		return false
	}
	for _, p := range phrasesNoEdit {
		if bytes.Contains(block, p) {
			return true
		}
	}
	return false
}

// isCommentLine reports whether a trimmed line is, or continues, a comment
// in a common syntax: //, #, /*, *, --, ;, %, <!--.
func isCommentLine(t []byte) bool {
	for _, p := range [...]string{"//", "#", "/*", "*", "--", ";", "%", "<!--"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// isMinified reports whether head is larger than 2 KiB and its average line,
// counting a final unterminated line, is longer than 300 bytes. A line ends
// with LF, CRLF or a lone CR (old Mac files).
func isMinified(head []byte) bool {
	if len(head) <= minifiedMinSize {
		return false
	}
	lines := bytes.Count(head, []byte{'\n'})
	if bytes.IndexByte(head, '\r') >= 0 {
		// A CR not followed by LF ends a line too.
		for i, c := range head {
			if c == '\r' && (i+1 == len(head) || head[i+1] != '\n') {
				lines++
			}
		}
	}
	if last := head[len(head)-1]; last != '\n' && last != '\r' {
		lines++
	}
	return len(head) > minifiedLineLen*lines
}
