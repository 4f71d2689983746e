// Package structure extracts the shape of source files: the definitions they
// make, the modules they import and the functions they call, and resolves
// imports to files of the repository.
//
// Extract parses the languages that TreeSitterLanguages lists with
// tree-sitter and its tags queries (queries/), which give exact definitions,
// ranges, containers, calls and references. Every other language, and any
// file tree-sitter fails on, gets the fallback extractor: one set of
// line-oriented patterns per language family. Extract never fails on a
// file; a language it does not know yields an empty outline.
//
// Tree-sitter's grammars are C code: a build without cgo (CGO_ENABLED=0)
// has none, TreeSitterLanguages is empty there and every file gets the
// fallback extractor. Parser says which extractor the build has.
package structure

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/hone-tools/hone/internal/lazyre"
)

// Def is one definition in a file.
type Def struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"` // function, method, class, type, interface, enum, constant, variable, field, module, macro, export, section
	Container string `json:"container,omitempty"`
	Line      int    `json:"line"`     // 1-based first line
	EndLine   int    `json:"end_line"` // 1-based last line (exact from tree-sitter, approximate from the fallback)
}

// Call is a call site: the name of the function, method or constructor
// called (the last part of a qualified name: "Println" for fmt.Println).
type Call struct {
	Name string
	Line int
}

// Ref is a reference to a name other than a call: a type named in a
// declaration, a base class, an implemented interface.
type Ref struct {
	Name string
	Kind string // type, class, interface, implementation
	Line int
}

// The extractors that can make an outline.
const (
	ParserTreeSitter = "tree-sitter"
	ParserFallback   = "fallback"
)

// Outline is what Extract finds in one file.
type Outline struct {
	Lang    string
	Defs    []Def
	Imports []string // import specifiers as written ("./session-manager", "app.db.models", "fmt")
	// Calls are the call sites in source order. Tree-sitter's are exact
	// (no keywords, nothing in strings or comments; `new X()` calls X);
	// the fallback fills them with the Calls scanner for code languages.
	Calls []Call
	// Refs are the other references tree-sitter finds (types, base
	// classes, implemented interfaces), definitions' own names left out;
	// nil from the fallback.
	Refs []Ref
	// Parser is the extractor that made the outline: ParserTreeSitter or
	// ParserFallback.
	Parser string
	// Err is why tree-sitter could not outline the file (Parser is then
	// ParserFallback): a parse or query timeout, a panic, a file too large.
	// With ParserTreeSitter it names the first syntax error: the outline is
	// then what tree-sitter recovered around it. Empty when all went well.
	Err string
}

// Language names the language of a file from its path, or "" when unknown.
func Language(p string) string {
	base := path.Base(p)
	switch base {
	case "Makefile", "GNUmakefile":
		return "make"
	case "Dockerfile":
		return "dockerfile"
	case "CMakeLists.txt":
		return "cmake"
	}
	ext := strings.ToLower(path.Ext(base))
	return extLang[ext]
}

var extLang = map[string]string{
	".go": "go", ".py": "python", ".pyi": "python",
	".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
	".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala", ".cs": "csharp",
	".rs": "rust", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
	".rb": "ruby", ".php": "php", ".swift": "swift", ".sh": "shell", ".bash": "shell", ".zsh": "shell",
	".lua": "lua", ".pl": "perl", ".pm": "perl", ".r": "r", ".jl": "julia", ".ex": "elixir", ".exs": "elixir",
	".erl": "erlang", ".hs": "haskell", ".ml": "ocaml", ".dart": "dart", ".vue": "vue", ".svelte": "svelte",
	".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".txt": "text",
	".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini", ".cfg": "ini", ".properties": "properties",
	".html": "html", ".htm": "html", ".css": "css", ".scss": "css", ".sql": "sql", ".proto": "proto",
	// C++ by other names: CUDA, inline and template implementations a
	// header includes, modules, Objective-C++.
	".cu": "cpp", ".cuh": "cpp", ".inl": "cpp", ".ipp": "cpp", ".tcc": "cpp", ".tpp": "cpp",
	".cppm": "cpp", ".ixx": "cpp", ".mm": "cpp", ".c++": "cpp", ".h++": "cpp",
	// Cython: Python's definitions, and C's declarations beside them.
	".pyx": "python", ".pxd": "python", ".pxi": "python",
	".groovy": "groovy", ".gradle": "groovy", ".zig": "zig", ".jq": "jq", ".cmake": "cmake",
}

// IsCode reports whether lang is a programming language rather than prose or data.
func IsCode(lang string) bool {
	switch lang {
	case "", "markdown", "rst", "text", "json", "yaml", "toml", "ini", "properties", "html", "css":
		return false
	}
	return true
}

type rule struct {
	re   func() *regexp.Regexp
	kind string
	// name is the submatch index of the name.
	name int
	// needs, when set, are strings one of which a line must hold for the
	// pattern to be tried: a test far cheaper than the pattern's.
	needs []string
	// grouped: the rule holds only inside a Go "const (" or "var (" group,
	// whose entries it names; a function body's assignments, indented
	// alike, define nothing.
	grouped bool
}

// needing is the rule that is tried only on lines holding one of needs.
func (ru rule) needing(needs ...string) rule {
	ru.needs = needs
	return ru
}

// mayMatch reports whether the rule's pattern is worth trying on line.
func (ru rule) mayMatch(line string) bool {
	return ru.needs == nil || holdsAny(line, ru.needs...)
}

// holdsAny reports whether s holds one of words.
func holdsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// kotlinModifiers are the annotations and modifiers a Kotlin declaration
// may open with, on its line: @JvmStatic internal actual, fun (of a fun
// interface), enum (of an enum class).
const kotlinModifiers = `(?:@[\w.:]+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|internal|open|abstract|final|sealed|data|inner|value|annotation|enum|companion|override|suspend|inline|tailrec|operator|infix|external|actual|expect|const|lateinit|fun)\s+)*`

// scalaModifiers are the annotations and modifiers a Scala declaration
// may open with: @tailrec private[scopt] final override.
const scalaModifiers = `(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:(?:private|protected)(?:\[\w+\])?|override|final|implicit|lazy|abstract|sealed|case|inline|transparent|open|infix|opaque)\s+)*`

// swiftModifiers are the attributes and modifiers a Swift declaration may
// open with: @MainActor public static, private(set), class (of a class's
// own member).
const swiftModifiers = `(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|open|package|static|class|final|override|mutating|nonmutating|convenience|required|dynamic|optional|indirect|nonisolated|isolated|distributed|lazy|(?:private|fileprivate|internal|public|open|package)\(set\))\s+)*`

// dartType is a Dart type before a declaration's name: void, int?,
// Future<List<int>>, Map<String, dynamic>, prefix.Type.
const dartType = `[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?(?:<[\w$<>?, .]*>)?\??`

// jsFunctionValue is what a JavaScript or TypeScript name is set to when it
// names a function: a function expression, or an arrow function whose
// parameters stand on the line, with a return type in TypeScript.
const jsFunctionValue = `(?:async\s+)?(?:function\b|(?:<[^>]*>\s*)?\((?:[^()]|\([^()]*\))*\)\s*(?::\s*[^=]+?)?\s*=>|[\w$]+\s*=>)`

// jsTypeAnnotation: a name's type, which may hold a function's arrow
// (handler: (req: Request) => Promise<Response> = async (req) => {).
const jsTypeAnnotation = `(?:[^=]|=>)+`

// jsNameGiven: a declaration that gives a name (the group) a value, its
// type between: const handler: (req: Request) => Response = .
const jsNameGiven = `(?:const|let|var)\s+([\w$]+)\s*(?::` + jsTypeAnnotation + `)?=\s*`

func r(expr, kind string, name int) rule {
	return rule{re: lazyre.New(expr), kind: kind, name: name}
}

var (
	goRules = []rule{
		// The receiver's name, if any, stands apart from its type: in
		// func (errValues) Error(), errValues is the type, not a name
		// before the type s.
		r(`^func\s+\(\s*(?:\w+\s*\*\s*|\*\s*|\w+\s+)?(\w+)(?:\[[^\]]*\])?\s*\)\s*(\w+)`, "method", 2),
		r(`^func\s+(\w+)`, "function", 1),
		r(`^type\s+(\w+)(?:\[[^\]]*\])?\s+interface\b`, "interface", 1),
		r(`^type\s+(\w+)`, "type", 1),
		r(`^(?:const|var)\s+(\w+)`, "constant", 1),
		{re: lazyre.New(`^\t(\w+)(?:\s+\w[\w.]*)?\s*=`), kind: "constant", name: 1, grouped: true},
	}
	pyRules = []rule{
		r(`^(\s*)(?:async\s+)?def\s+(\w+)`, "function", 2),
		r(`^(\s*)class\s+(\w+)`, "class", 2),
		r(`^()([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]`, "variable", 2),
	}
	jsRules = []rule{
		r(`^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b\s*\*?\s*(\w+)`, "function", 2),
		r(`^(\s*)(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)`, "class", 2),
		// A class expression given a name: module.exports = class Application extends Emitter {.
		r(`^(\s*)(?:(?:const|let|var)\s+)?(?:[\w$.]+\s*=\s*)+class\s+(\w+)`, "class", 2).needing("class "),
		r(`^(\s*)(?:export\s+)?(?:declare\s+)?interface\s+(\w+)`, "interface", 2),
		r(`^(\s*)(?:export\s+)?(?:declare\s+)?type\s+(\w+)\s*(?:<[^>]*>)?\s*=`, "type", 2),
		r(`^(\s*)(?:export\s+)?(?:const\s+)?enum\s+(\w+)`, "enum", 2),
		// A function kept in a name at the margin, as tree-sitter reads it:
		// export const handler = async (req) => {, const f = function () {.
		r(`^()(?:export\s+)?`+jsNameGiven+jsFunctionValue, "function", 2).needing("function", "=>"),
		r(`^()(?:export\s+)?(?:const|let|var)\s+(\w+)`, "variable", 2),
		// A function set on an object: proto.week = function (, exports.show = async (req) =>.
		r(`^(\s*)(?:[\w$]+\.)+#?([\w$]+)\s*=\s*`+jsFunctionValue, "function", 2).needing("function", "=>"),
		// A function-valued property of an object literal: html: function () {, getAdapter: (adapters) => {.
		// Not a member of an interface or type, whose arrow leads to a type (toJSON: () => object;).
		r(`^(\s+)#?([\w$]+)\s*:\s*`+jsFunctionValue+`(?:\s*[{(]|\s*$)`, "function", 2).needing("function", "=>"),
		// A function kept in a local name: const done = (value) => {.
		r(`^(\s+)`+jsNameGiven+jsFunctionValue, "function", 2).needing("function", "=>"),
		// A class's field that holds a function: private onChange = (v: string): void => {.
		r(`^(\s+)(?:(?:public|private|protected|static|readonly|override|declare)\s+)*#?([\w$]+)\s*[?!]?\s*(?::`+jsTypeAnnotation+`)?=\s*`+jsFunctionValue, "function", 2).needing("function", "=>"),
		// A method, its body opened at the line's end or whole on it (get
		// size() { return this.n; }, constructor(a) { super(a); }).
		r(`^(\s+)(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*\*?#?([\w$]+)\s*(?:<[^>]*>)?\((?:[^()]|\([^()]*\))*\)?\s*(?::\s*[^{]+)?\{(?:[^{}]*\}\s*[;,]?)?\s*(?://.*)?$`, "method", 2),
	}
	javaRules = []rule{
		r(`^(\s*)(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|partial|override|inline|suspend|case)\s+)*(?:class|object|record|struct)\s+(\w+)`, "class", 2),
		// An interface, and Java's annotation type (public @interface Captor).
		r(`^(\s*)(?:(?:public|private|protected|internal|static|sealed|abstract)\s+)*(?:@\s*interface|interface|trait)\s+(\w+)`, "interface", 2),
		r(`^(\s*)(?:(?:public|private|protected|internal|static)\s+)*enum\s+(?:class\s+)?(\w+)`, "enum", 2),
		r(`^(\s*)(?:(?:public|private|protected|internal|static|final|abstract|synchronized|override|suspend|open|async|virtual)\s+)*(?:fun|def)\s+(?:<[^>]*>\s*)?(?:\w+\.)?(\w+)`, "method", 2),
		r(`^(\s+)(?:(?:public|private|protected|internal|static|final|abstract|synchronized|override|async|virtual|sealed|extern|unsafe|new|partial|readonly)\s+)+[\w<>\[\],.? ]+\s+(\w+)\s*(?:<[\w<>, ]*>)?\(`, "method", 2),
	}
	// Kotlin: a function (an extension's receiver before its name: fun
	// ByteArray.decodeUtf8), a class or object, an interface, an enum
	// class, a typealias; the multiplatform modifiers (expect, actual)
	// and the others Java has not.
	kotlinRules = []rule{
		r(`^(\s*)`+kotlinModifiers+`enum\s+class\s+(\w+)`, "enum", 2),
		r(`^(\s*)`+kotlinModifiers+`fun\s+(?:<[^>]*>\s*)?(?:[\w.]+(?:<[^()]*?>)?\??\.)?([\w$]+)\s*[(<]`, "function", 2),
		r(`^(\s*)`+kotlinModifiers+`(?:class|object)\s+(\w+)`, "class", 2),
		r(`^(\s*)`+kotlinModifiers+`interface\s+(\w+)`, "interface", 2),
		r(`^(\s*)`+kotlinModifiers+`typealias\s+(\w+)`, "type", 2),
	}
	// Scala: a def, with or without parameters (def size: Int = n), with
	// type parameters in brackets, after a qualified private[pkg]; a
	// class, case class, object, trait or enum.
	scalaRules = []rule{
		r(`^(\s*)`+scalaModifiers+`def\s+([\w$]+)`, "function", 2),
		r(`^(\s*)`+scalaModifiers+`(?:class|object)\s+(\w+)`, "class", 2),
		r(`^(\s*)`+scalaModifiers+`trait\s+(\w+)`, "interface", 2),
		r(`^(\s*)`+scalaModifiers+`enum\s+(\w+)`, "enum", 2),
		r(`^(\s*)`+scalaModifiers+`type\s+(\w+)`, "type", 2),
	}
	// Lua: a function statement (function M.name, function obj:name,
	// local function name) or a function given to a name (M.name =
	// function).
	luaRules = []rule{
		r(`^(\s*)(?:local\s+)?function\s+(?:\w+[.:])*(\w+)\s*\(`, "function", 2),
		r(`^(\s*)(?:local\s+)?(?:\w+\.)*(\w+)\s*=\s*function\s*\(`, "function", 2),
	}
	// Elixir: a module, a protocol, a public or private function, macro
	// or guard; their bodies are indented, as Ruby's are.
	elixirRules = []rule{
		r(`^(\s*)defmodule\s+([\w.]+)`, "module", 2),
		r(`^(\s*)defprotocol\s+([\w.]+)`, "interface", 2),
		r(`^(\s*)(?:def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate)\s+(\w+[?!]?)`, "function", 2),
	}
	// Perl: a sub, and a package.
	perlRules = []rule{
		r(`^(\s*)sub\s+(\w+)`, "function", 2),
		r(`^()package\s+([\w:]+)`, "module", 2),
	}
	// R: a function given to a name (name <- function(x)).
	rRules = []rule{
		r(`^(\s*)([\w.]+)\s*(?:<<?-|=)\s*function\s*\(`, "function", 2),
	}
	// Julia: a function or macro, a one-line function (f(x) = 2x), a
	// struct or abstract type, a module.
	juliaRules = []rule{
		r(`^(\s*)(?:function|macro)\s+(?:[\w.]+\.)?(\w+!?)`, "function", 2),
		r(`^(\s*)(?:(?:mutable|abstract|primitive)\s+)?(?:struct|type)\s+(\w+)`, "type", 2),
		r(`^(\s*)(?:bare)?module\s+(\w+)`, "module", 2),
		r(`^()(\w+!?)(?:\{[^}]*\})?\([^()]*\)(?:\s*::\s*[\w{}]+)?\s*=[^=]`, "function", 2),
	}
	// Swift: a function, initializer or subscript; a type; a protocol; an
	// enum; an extension, which defines members of its type, so its
	// methods have it as their container. The function's pattern comes
	// first, so that class func is a function's modifier, not a class.
	swiftRules = []rule{
		r(`^(\s*)`+swiftModifiers+`func\s+(\w+)`, "function", 2),
		r(`^(\s*)`+swiftModifiers+`(init|deinit|subscript)[?!]?\s*[(<{]`, "method", 2),
		r(`^(\s*)`+swiftModifiers+`(?:class|struct|actor)\s+(\w+)(?:\s*[:<{]|\s*$|\s+where\b)`, "class", 2),
		r(`^(\s*)`+swiftModifiers+`protocol\s+(\w+)`, "interface", 2),
		r(`^(\s*)`+swiftModifiers+`enum\s+(\w+)`, "enum", 2),
		r(`^(\s*)`+swiftModifiers+`extension\s+([\w.]+)`, "type", 2),
		r(`^(\s*)`+swiftModifiers+`typealias\s+(\w+)`, "type", 2),
	}
	// Dart: a class, mixin, enum or extension; a typedef; a getter or
	// setter; a function, method or constructor, with its return type
	// (or factory, const) before its name: a call has none (dartDeclLike
	// turns away a keyword in the type's place: return foo(, await foo().
	dartRules = []rule{
		r(`^(\s*)(?:(?:abstract|sealed|base|interface|final|mixin|macro)\s+)*(?:class|mixin)\s+(\w+)`, "class", 2),
		r(`^(\s*)enum\s+(\w+)`, "enum", 2),
		r(`^(\s*)extension\s+(?:type\s+)?(\w+)`, "type", 2),
		r(`^()typedef\s+(\w+)`, "type", 2),
		r(`^(\s*)(?:@\w+\s+)?(?:(?:static|external|abstract|covariant)\s+)*(?:`+dartType+`\s+)?(?:get|set)\s+([\w$]+)\s*(?:\(|=>|\{|;)`, "method", 2),
		r(`^(\s*)(?:@\w+\s+)?(?:(?:static|external)\s+)*(?:factory|const)\s+([\w$]+(?:\.[\w$]+)?)\s*\(`, "method", 2),
		r(`^(\s*)(?:@\w+\s+)?(?:(?:static|external|abstract|covariant)\s+)*`+dartType+`\s+([\w$]+)\s*(?:<[^()]*>)?\(`, "function", 2),
	}
	rustRules = []rule{
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)`, "function", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?struct\s+(\w+)`, "type", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?enum\s+(\w+)`, "enum", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?trait\s+(\w+)`, "interface", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(\w+)`, "constant", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)`, "module", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?type\s+(\w+)`, "type", 2),
		r(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?union\s+(\w+)\s*(?:<[^>]*>)?\s*(?:where\b.*)?\{`, "type", 2),
		// A declarative macro, exported or not (#[macro_export] is its own line).
		r(`^(\s*)macro_rules!\s*(\w+)`, "macro", 2),
	}
	// C and C++: a type's name may follow a template's parameters on its
	// line, and an export macro or attribute (class TXT_API buffer,
	// struct [[nodiscard]] result), and come before final, a base list
	// (class json : public base {) or an enum's type; a declaration
	// (class Foo;) defines nothing, but a body whole on its line does
	// (enum class Mode { Run, List };). A C++ alias names a type as typedef
	// does (using has_formatter = ...). A nested namespace is named whole
	// (namespace a::b {, namespace a::inline b {), as is a nested class
	// defined out of its own (class Outer::Inner {); a name with template
	// arguments is none (template <> struct std::hash<Foo> {: its base
	// list never starts with a second colon).
	cRules = []rule{
		r(`^(\s*)(?:template\s*<.*>\s*)?(?:struct|union|enum(?:\s+class|\s+struct)?|class|(?:inline\s+)?namespace)\s+(?:(?:[A-Z][A-Z0-9_]*[A-Z0-9]|alignas\s*\([^)]*\)|\[\[[^\]]*\]\]|__attribute__\s*\(\(.*?\)\))\s+)*(\w+(?:::(?:inline\s+)?\w+)*)\s*(?:final\s*)?(?::(?:[^:;{][^;{]*)?)?(?:\{(?:[^{}]*\}\s*;)?)?\s*(?://.*)?$`, "type", 2),
		r(`^(\s*)(?:template\s*<.*>\s*)?using\s+(\w+)\s*=`, "type", 2),
		r(`^()#\s*define\s+(\w+)`, "constant", 2),
		r(`^()typedef\s+.*?\b(\w+)\s*;`, "type", 2),
		// A function at the margin: its name qualified by classes and
		// templates' (T Container<T>::get() const {), its body to come
		// or whole on its line (int max2(int a, int b) { return a; }).
		r(`^()[A-Za-z_][\w:*&<>,]*\s+(?:[\w:*&<>,]+\s+)*\**&?((?:\w+(?:<[\w:*&, ]*>)?::)*~?\w+)\s*\((?:[^;]*$|[^;{}]*\)[\w\s]*\{.*\}\s*$)`, "function", 2),
	}
	rubyRules = []rule{
		r(`^(\s*)(?:(?:private|protected|public|module_function)\s+)?def\s+(?:[\w:]+\.)?(\w+[?!=]?|\[\]=?|[-+*/%~!^&|<=>]+@?)`, "method", 2),
		r(`^(\s*)class\s+([\w:]+)`, "class", 2),
		r(`^(\s*)module\s+([\w:]+)`, "module", 2),
	}
	phpRules = []rule{
		r(`^(\s*)(?:(?:public|private|protected|static|final|abstract)\s+)*function\s+(\w+)`, "function", 2),
		r(`^(\s*)(?:(?:final|abstract)\s+)*(?:class|interface|trait|enum)\s+(\w+)`, "class", 2),
	}
	// Groovy (and Gradle's scripts): Java's types, and methods declared
	// with def or a type.
	groovyRules = []rule{
		r(`^(\s*)(?:(?:public|private|protected|abstract|final|static)\s+)*(?:class|trait)\s+(\w+)`, "class", 2),
		r(`^(\s*)(?:(?:public|private|protected)\s+)*interface\s+(\w+)`, "interface", 2),
		r(`^(\s*)(?:(?:public|private|protected)\s+)*enum\s+(\w+)`, "enum", 2),
		r(`^(\s*)(?:(?:public|private|protected|static|final|synchronized|abstract)\s+)*def\s+(\w+)\s*\(`, "function", 2),
		r(`^(\s*)(?:(?:public|private|protected|static|final|synchronized|abstract)\s+)+[\w<>\[\],.?\s]*?\b(\w+)\s*\([^)]*\)\s*(?:throws\s+[\w.,\s]+)?\{`, "function", 2),
	}
	// Zig: functions and the types a constant names.
	zigRules = []rule{
		r(`^(\s*)(?:pub\s+)?(?:export\s+|extern\s+|inline\s+|noinline\s+)*fn\s+(\w+)\s*\(`, "function", 2),
		r(`^(\s*)(?:pub\s+)?const\s+(\w+)\s*=\s*(?:extern\s+|packed\s+)?(?:struct|enum|union|opaque)\b`, "type", 2),
	}
	// jq: a filter defined with def, its parameters after its name.
	jqRules = []rule{
		r(`^(\s*)def\s+(\$?[A-Za-z_]\w*)\s*[(:]`, "function", 2),
	}
	// CMake: functions and macros, their names the first argument.
	cmakeRules = []rule{
		r(`^(\s*)(?i:function|macro)\s*\(\s*([\w.+-]+)`, "function", 2),
	}
	shellRules = []rule{
		r(`^()(?:function\s+)?([\w-]+)\s*\(\)\s*\{?`, "function", 2),
		r(`^()function\s+([\w-]+)`, "function", 2),
	}
	mdRules = []rule{
		r(`^()#{1,4}\s+(.+?)\s*#*\s*$`, "section", 2),
	}
	familyRules = map[string][]rule{
		"go": goRules, "python": pyRules, "javascript": jsRules, "typescript": jsRules, "vue": jsRules, "svelte": jsRules,
		"java": javaRules, "kotlin": kotlinRules, "scala": scalaRules, "csharp": javaRules, "swift": swiftRules, "dart": dartRules,
		"rust": rustRules, "c": cRules, "cpp": cRules, "ruby": rubyRules, "php": phpRules, "shell": shellRules,
		"lua": luaRules, "elixir": elixirRules, "perl": perlRules, "r": rRules, "julia": juliaRules,
		"groovy": groovyRules, "zig": zigRules, "jq": jqRules, "cmake": cmakeRules,
		"markdown": mdRules,
	}
)

// bodyOnLine reports whether a line opens braces and closes them all.
func bodyOnLine(line string) bool {
	open := strings.Count(line, "{")
	return open > 0 && open == strings.Count(line, "}")
}

// rustImpl matches the line that opens an impl block, and names the type
// it implements for: impl<T> Trait for a::Type<T> {.
var rustImpl = lazyre.New(`^\s*(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s+(?:[^{]*?\s+for\s+)?(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)?(?:dyn\s+)?(?:[\w]+::)*(\w+)`)

// jsOpenArrow matches a line at the margin that gives a name a value in
// parentheses opened at its end: an arrow function's parameters over
// lines, maybe destructured (export const Button = ({).
var jsOpenArrow = lazyre.New(`^(?:export\s+)?` + jsNameGiven + `(?:async\s+)?(?:<[^>]*>\s*)?\(\s*\{?\s*$`)

// jsArrowClose matches the margin line that closes such parameters and
// gives their arrow: ) => {, }: Props) => {, >) => {, }): Promise<void> =>.
var jsArrowClose = lazyre.New(`^(?:[)}>](?:[^()=]|\([^()]*\)|=>)*)?\)\s*(?::[^()=]*)?=>`)

// jsArrowOverLines reports whether line i (0-based), at the margin, opens
// an arrow function's parameters that go on over the lines after it: the
// margin lines after it close what it opened (}: { a: T } & Omit<, then
// >) => {), the one that holds an arrow closing the parameters before it
// (not the call of ( … ).filter((u) => …)).
func jsArrowOverLines(lines []string, i int) bool {
	if !jsOpenArrow().MatchString(lines[i]) {
		return false
	}
	for k := i + 1; k < len(lines) && k <= i+bodyLookahead; k++ {
		l := lines[k]
		if strings.TrimSpace(l) == "" || indentOf(l) > 0 {
			continue
		}
		if !strings.ContainsAny(l[:1], ")}>") {
			return false
		}
		if strings.Contains(l, "=>") {
			return jsArrowClose().MatchString(l)
		}
	}
	return false
}

// jsOpenParams matches a line that may start a JavaScript or TypeScript
// method whose parameters go on over the lines after it: its name, then
// ( at the line's end.
var jsOpenParams = lazyre.New(`^\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*\*?#?([\w$]+)\s*(?:<[^>]*>)?\(\s*$`)

// jsCloseParams matches the line that closes such a method's parameters
// and opens its body: ) {, ): Promise<void> {.
var jsCloseParams = lazyre.New(`^\)\s*(?::\s*[^{;]+)?\{\s*(?://.*)?$`)

// jsParamsOpenBody reports whether the parameters opened at the end of
// line i (0-based) close, at its indentation, on a line that opens a
// body: a method's, not a call's (whose ) is followed by ; or nothing).
func jsParamsOpenBody(lines []string, i int) bool {
	ind := indentOf(lines[i])
	for k := i + 1; k < len(lines) && k <= i+bodyLookahead; k++ {
		t := strings.TrimSpace(lines[k])
		if t == "" {
			continue
		}
		if indentOf(lines[k]) <= ind {
			return indentOf(lines[k]) == ind && jsCloseParams().MatchString(t)
		}
	}
	return false
}

// opensAgain reports whether a line, trimmed, ends opening a bracket or
// going on with an operator: }: {, }) => {, }: Props & Omit<. (Not with a
// comma: an object's method ends at its },.)
func opensAgain(t string) bool {
	t = beforeLineComment(t)
	for _, end := range []string{"{", "(", "[", "=>", "<", "<>", "&", "|", "=", "?", ":"} {
		if strings.HasSuffix(t, end) {
			return true
		}
	}
	return false
}

// beforeLineComment is a trimmed line without its // comment.
func beforeLineComment(t string) string {
	if c := strings.Index(t, "//"); c >= 0 {
		return strings.TrimSpace(t[:c])
	}
	return t
}

// phpLeaves reports whether a PHP line, read from in PHP or (html) out of
// it, ends out of it: after a ?> that no <?php opens again.
func phpLeaves(l string, html bool) bool {
	for l != "" {
		if html {
			i := strings.Index(l, "<?")
			if i < 0 {
				return true
			}
			html, l = false, l[i+2:]
			continue
		}
		i := strings.Index(l, "?>")
		if i < 0 {
			return false
		}
		html, l = true, l[i+2:]
	}
	return html
}

// signatureGoesOn reports whether the first line from line k (0-based)
// that is neither blank nor a comment goes on with a signature at
// indentation ind: a comment between a Kotlin class and its constructor.
func signatureGoesOn(lines []string, k, ind int) bool {
	for ; k < len(lines); k++ {
		t := strings.TrimSpace(lines[k])
		if t == "" || leads(t) {
			continue
		}
		return indentOf(lines[k]) == ind && kotlinConstructor().MatchString(t)
	}
	return false
}

// isLabel reports whether a line, trimmed, is a label alone: loop:, or
// walk: // Outer loop, a comment after it; C++'s public: too.
func isLabel(t string) bool {
	for _, c := range []string{"//", "/*"} {
		if i := strings.Index(t, c); i > 0 {
			t = strings.TrimSpace(t[:i])
		}
	}
	name, ok := strings.CutSuffix(t, ":")
	return ok && isIdent(name)
}

// opensBody reports whether the declaration of a brace language on line i
// (0-based) opens a body: a { on its line or on the lines that go on with
// it (more indented, or starting with {, ), :, where, extends or
// implements), before a ; ends it or a line at its indentation starts
// something else.
func opensBody(lines []string, i int) bool {
	ind := indentOf(lines[i])
	for k := i; k < len(lines) && k < i+bodyLookahead; k++ {
		l := lines[k]
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if k > i && leads(t) {
			continue // a comment or annotation between: Kotlin's before its constructor
		}
		if k > i && indentOf(l) <= ind && !continuesSignature(t) {
			return false
		}
		code := beforeLineComment(t)
		if strings.Contains(code, "{") {
			return true
		}
		if strings.HasSuffix(code, ";") {
			return false
		}
	}
	return false
}

// continuesSignature reports whether a line at a declaration's own
// indentation goes on with its signature.
func continuesSignature(t string) bool {
	if t[0] == '{' || t[0] == ')' || t[0] == ':' || t[0] == ',' || t[0] == '>' {
		return true
	}
	for _, w := range []string{"where", "extends", "implements", "throws"} {
		if t == w || strings.HasPrefix(t, w+" ") {
			return true
		}
	}
	return kotlinConstructor().MatchString(t)
}

// kotlinConstructor matches a Kotlin class's primary constructor on a
// line of its own: internal actual constructor(data: ByteArray).
var kotlinConstructor = lazyre.New(`^(?:(?:@\w+(?:\([^)]*\))?|internal|private|public|protected|actual|expect)\s+)*constructor\b`)

// isJS reports the languages the JavaScript patterns outline.
func isJS(lang string) bool {
	switch lang {
	case "javascript", "typescript", "vue", "svelte":
		return true
	}
	return false
}

// jsMethodLike reports a line of JavaScript or TypeScript that the method
// pattern matched, name(args) {, that defines a method: of a class, or
// of an object literal, where a call cannot open a block. A call that
// takes a callback or an object looks like one: it('does', function () {,
// showModal(AskModal, {. So the parameters must close on the line, before
// the brace, start with no string, and hold no function or arrow.
func jsMethodLike(line string) bool {
	open := strings.IndexByte(line, '(')
	if open < 0 || strings.Contains(line, "function") {
		return false
	}
	depth := 0
	for i := open; i < len(line); i++ {
		switch line[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				args := strings.TrimSpace(line[open+1 : i])
				// An arrow only in a parameter's type (fn: (x: T) =>
				// void), none after the parameters.
				if strings.Contains(line[i:], "=>") || strings.Contains(args, "=>") && !strings.Contains(args, ":") {
					return false
				}
				return args == "" || !strings.ContainsAny(args[:1], "'\"`")
			}
		}
	}
	return false
}

// dartNotTypes are the keywords that stand before a call where a
// declaration has its return type: return foo(, await foo(, new Foo(.
var dartNotTypes = map[string]bool{
	"return": true, "await": true, "throw": true, "yield": true, "new": true, "else": true, "case": true,
	"var": true, "final": true, "const": true, "late": true, "async": true, "in": true, "is": true, "as": true,
	"do": true, "assert": true, "default": true, "when": true, "show": true, "hide": true, "import": true, "export": true,
	"part": true, "library": true, "on": true, "extends": true, "with": true, "implements": true, "if": true,
}

// dartDeclLike reports whether a Dart line the function pattern matched,
// naming name, declares: the word in its return type's place is no
// keyword, and the name is no function type's.
func dartDeclLike(line, name string) bool {
	if name == "Function" {
		return false // a function type: void Function(int) callback
	}
	f := strings.Fields(line)
	for len(f) > 0 && (strings.HasPrefix(f[0], "@") || f[0] == "static" || f[0] == "external" || f[0] == "abstract" || f[0] == "covariant") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	typ := f[0]
	if i := strings.IndexAny(typ, "<?("); i >= 0 {
		typ = typ[:i]
	}
	return !dartNotTypes[typ]
}

// notNames are keywords that a loose method pattern may capture.
var notNames = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true, "function": true,
	"else": true, "do": true, "try": true, "with": true, "typeof": true, "await": true, "sizeof": true, "defined": true,
}

// notCalls are keywords that look like calls: "new Foo(" calls Foo, not new.
var notCalls = map[string]bool{"new": true, "super": true, "elif": true, "assert": true, "not": true, "and": true, "or": true, "in": true, "lambda": true, "yield": true}

// Extract outlines src, a file at path p, with tree-sitter where a grammar
// exists, else (or when tree-sitter fails on the file, see Outline.Err) with
// the fallback patterns. It never fails: a language it does not know gets an
// outline with no definitions. It is safe for concurrent use.
func Extract(p string, src []byte) Outline {
	if o, ok := extractTreeSitter(p, src); ok {
		return o
	}
	return ExtractFallback(p, src)
}

// Parser names the extractor that makes Extract's outlines in this build:
// "tree-sitter" (ParserTreeSitter) when it was built with cgo, which
// tree-sitter's grammars need, and "line patterns" without cgo, where
// every file gets the fallback patterns (an Outline's Parser is then
// ParserFallback). Even with tree-sitter, a language without a grammar
// and a file tree-sitter fails on get the patterns: Outline.Parser says
// which extractor made each outline.
func Parser() string { return exactParser }

// ParseTimeout bounds the tree-sitter work on one file: the parse, and the
// query over the tree. Past it the file falls back to the patterns.
const ParseTimeout = 2 * time.Second

// MaxTreeSitterBytes is the largest file given to tree-sitter; larger ones
// use the patterns.
const MaxTreeSitterBytes = 4 << 20

// Stats counts what Extract did since the process started. Without cgo
// every count stays 0: no file is given to tree-sitter.
type Stats struct {
	TreeSitter   int64 // files outlined by tree-sitter
	SyntaxErrors int64 // of those, files with syntax errors (outlined all the same)
	Fallback     int64 // files of a tree-sitter language outlined by the patterns instead
	Timeouts     int64 // of those, parses or queries that ran out of time
	Panics       int64 // of those, extractions that panicked
}

var stats struct {
	treeSitter, syntaxErrors, fallback, timeouts, panics atomic.Int64
}

// ParseStats returns the counts of tree-sitter outlines and fallbacks.
func ParseStats() Stats {
	return Stats{
		TreeSitter: stats.treeSitter.Load(), SyntaxErrors: stats.syntaxErrors.Load(),
		Fallback: stats.fallback.Load(), Timeouts: stats.timeouts.Load(), Panics: stats.panics.Load(),
	}
}

// ExtractFallback outlines src with the fallback patterns only.
func ExtractFallback(p string, src []byte) Outline {
	return ExtractFallbackText(p, string(src))
}

// ExtractFallbackText is ExtractFallback of a text: the outline's strings
// are parts of it, with no copy of the text made.
func ExtractFallbackText(p, text string) Outline {
	o := ExtractFallbackDefs(p, text)
	if IsCode(o.Lang) {
		o.Calls = Calls(unsafe.Slice(unsafe.StringData(text), len(text))) // read, never written
	}
	return o
}

// ExtractFallbackDefs is ExtractFallbackText without the calls, for a
// caller that needs their names alone (CallNames).
func ExtractFallbackDefs(p, text string) Outline {
	lp := linePool.Get().(*[]string)
	lines := splitTextInto((*lp)[:0], text)
	o := Outline{Lang: LanguageOfLines(p, lines), Parser: ParserFallback}
	rules := familyRules[o.Lang]
	if rules != nil {
		o.Defs = extractDefs(o.Lang, rules, lines)
	}
	o.Imports = extractImports(o.Lang, lines)
	// The lines are parts of the text: the slice holding them is kept
	// for the next file, emptied, so that it holds no text alive.
	clear(lines)
	*lp = lines[:0]
	linePool.Put(lp)
	return o
}

// linePool keeps the line slices of ExtractFallbackDefs: a cold index
// splits every file, and the slices were a fifth of what it allocated.
var linePool = sync.Pool{New: func() any { return new([]string) }}

func splitLines(src []byte) []string { return splitText(string(src)) }

func splitText(s string) []string {
	return splitTextInto(make([]string, 0, strings.Count(s, "\n")+1), s)
}

// splitTextInto is splitText, appending the lines to lines.
func splitTextInto(lines []string, s string) []string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, strings.TrimSuffix(s[:i], "\r"))
		s = s[i+1:]
	}
	return append(lines, strings.TrimSuffix(s, "\r"))
}

type openDef struct {
	name   string // the container's name
	indent int
}

func indentOf(l string) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

func extractDefs(lang string, rules []rule, lines []string) []Def {
	var defs []Def
	var stack []openDef // enclosing class-like definitions by indentation
	indentScoped := lang == "python" || lang == "ruby" || lang == "elixir"
	style := commentStyleOf(lang)
	inBlockComment := false
	inGroup := false // in a Go "const (" or "var (" group
	// Python: the lines that start statements, the only ones that can
	// define, or end a block; not a string's lines, nor a call's.
	var statements []int
	var statement []bool
	if lang == "python" {
		statements = pythonStatements(lines)
		statement = make([]bool, len(lines)+1)
		for _, l := range statements {
			statement[l] = true
		}
	}
	brace := braceClosed[lang] || lang == "c" || lang == "cpp"
	var strs *stringScan // the strings over lines of a brace language
	if brace {
		strs = newStringScan(lang)
	}
	for i, line := range lines {
		if strs != nil && strs.line(line) {
			continue // a string's line: no definition, no closing brace
		}
		if len(line) > 400 {
			continue // minified or data; patterns would only mislead
		}
		if statement != nil && !statement[i+1] {
			continue
		}
		trim := strings.TrimSpace(line)
		if trim == "" {
			continue
		}
		if style == dashStyle && strings.HasPrefix(trim, "--") {
			continue
		}
		if style != hashStyle && lang != "markdown" {
			if inBlockComment {
				if strings.Contains(trim, "*/") {
					inBlockComment = false
				}
				continue
			}
			if strings.HasPrefix(trim, "/*") && !strings.Contains(trim, "*/") {
				inBlockComment = true
				continue
			}
			if strings.HasPrefix(trim, "//") || strings.HasPrefix(trim, "*") {
				continue
			}
		} else if lang != "markdown" && strings.HasPrefix(trim, "#") {
			continue
		}
		// The patterns read a declaration after its annotations on its
		// line, and a C# tuple return type as one word.
		read := trim
		if n := annotationsEnd(lang, read); n > 0 && n < len(read) {
			read = read[n:]
		}
		if lang == "csharp" {
			read = csharpTuple(read)
		}
		if read != trim {
			line = line[:len(line)-len(strings.TrimLeft(line, " \t"))] + read
			trim = read
		}
		if lang == "go" && ind0(line) {
			// A group of constants or variables opens and closes at the
			// margin.
			switch {
			case trim == ")":
				inGroup = false
			case strings.HasPrefix(trim, "const") || strings.HasPrefix(trim, "var"):
				f := strings.Fields(trim)
				inGroup = len(f) == 2 && f[1] == "(" || len(f) == 1 && strings.HasSuffix(f[0], "(")
			}
		}
		may := mayDefine(lang, line, trim)
		ind := indentOf(line)
		for len(stack) > 0 && ind <= stack[len(stack)-1].indent && indentScoped {
			stack = stack[:len(stack)-1]
		}
		if (lang == "javascript" || lang == "typescript") && ind == 0 {
			// A re-export defines the names for the module's importers.
			if m := jsReexport().FindStringSubmatch(line); m != nil {
				for _, part := range strings.Split(m[1], ",") {
					f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(part), "type "))
					if len(f) == 0 {
						continue
					}
					name := f[len(f)-1] // "a as b" exports b
					defs = append(defs, Def{Name: name, Kind: "export", Line: i + 1})
				}
				continue
			}
		}
		found := false
		if (lang == "c" || lang == "cpp") && ind == 0 && strings.HasPrefix(trim, "typedef") {
			if ds, ok := cTypedefAt(lines, i, len(lines)); ok {
				defs = append(defs, ds...)
				continue
			}
		}
		for _, ru := range rules {
			if !may {
				break
			}
			if !ru.mayMatch(line) || ru.grouped && !inGroup {
				continue
			}
			m := ru.re().FindStringSubmatch(line)
			if m == nil {
				continue
			}
			name := m[ru.name]
			if lang == "markdown" {
				name = strings.TrimSpace(name)
			}
			if name == "" || notNames[name] {
				continue
			}
			kind := ru.kind
			if (lang == "cpp" || lang == "c") && strings.ContainsAny(name, " \t") {
				// namespace a::inline b, whatever its spaces
				name = strings.ReplaceAll(strings.Join(strings.Fields(name), " "), "::inline ", "::")
			}
			if isJS(lang) && kind == "variable" && jsArrowOverLines(lines, i) {
				kind = "function" // export const Button = ({ over lines }: Props) => {
			}
			if (lang == "c" || lang == "cpp") && kind == "type" && ind > 0 && !cIndentedType(lines, i) {
				continue // enum color, then c = RED; in a function
			}
			if (lang == "c" || lang == "cpp") && kind == "type" && cNamespace(trim) {
				kind = "module" // C++'s namespace, in a header read as C too
			}
			if (lang == "c" || lang == "cpp") && kind == "type" && len(trim) > 4 && strings.HasPrefix(trim, "enum") && !isWordByte(trim[4]) {
				kind = "enum" // enum color {, enum class Mode {, as a typedef's enum tag is
			}
			d := Def{Name: name, Kind: kind, Line: i + 1}
			if lang == "go" && kind == "method" {
				d.Container = m[1]
			}
			if len(stack) > 0 && ind > stack[len(stack)-1].indent {
				d.Container = stack[len(stack)-1].name
				if kind == "function" {
					d.Kind = "method"
				}
			} else if kind == "method" && lang != "go" && ind > 0 && !indentScoped && !isJS(lang) {
				// an indented method pattern outside any known container: likely a
				// call or control statement the loose pattern caught.
				if len(stack) == 0 {
					continue
				}
			}
			if (lang == "c" || lang == "cpp") && kind == "function" && declaredOnly(lines, i) {
				continue
			}
			if lang == "dart" && kind == "function" && !dartDeclLike(line, name) {
				continue
			}
			if kind == "method" && isJS(lang) && !jsMethodLike(line) {
				// JavaScript's methods, of a class or of an object literal,
				// need no container: a call cannot open a block there. But a
				// call that takes a callback looks like one.
				continue
			}
			if lang == "python" && kind == "variable" && !isConstName(name) {
				continue
			}
			defs = append(defs, d)
			found = true
			if d.Kind == "class" || d.Kind == "interface" || d.Kind == "module" || (d.Kind == "type" && lang != "go") || d.Kind == "enum" {
				if !indentScoped {
					// brace languages: the container lasts until the indentation returns.
					for len(stack) > 0 && ind <= stack[len(stack)-1].indent {
						stack = stack[:len(stack)-1]
					}
				}
				// A body whole on its line (record Point(int x) {},
				// struct tag {};) contains nothing after it: no closing
				// line would take it off the stack.
				// Nor does a declaration with no body (type Id = string;,
				// pub struct Marker;, data class Point(val x: Int)).
				if indentScoped || !bodyOnLine(line) && (!brace || opensBody(lines, i)) {
					stack = append(stack, openDef{name: d.Name, indent: ind})
				}
			}
			break
		}
		if !found && lang == "rust" {
			// An impl block is no definition, but holds its type's
			// methods: Ready.is_empty in impl Ready { … }.
			if m := rustImpl().FindStringSubmatch(line); m != nil && opensBody(lines, i) {
				for len(stack) > 0 && ind <= stack[len(stack)-1].indent {
					stack = stack[:len(stack)-1]
				}
				stack = append(stack, openDef{name: m[1], indent: ind})
				continue
			}
		}
		if !found && isJS(lang) && ind > 0 {
			// A method whose parameters run over lines: constructor(,
			// then a line that closes them and opens the body.
			if m := jsOpenParams().FindStringSubmatch(line); m != nil && !notNames[m[1]] && jsParamsOpenBody(lines, i) {
				d := Def{Name: m[1], Kind: "method", Line: i + 1}
				if len(stack) > 0 && ind > stack[len(stack)-1].indent {
					d.Container = stack[len(stack)-1].name
				}
				defs = append(defs, d)
				found = true
			}
		}
		if !found && (lang == "java" || lang == "csharp") && len(stack) > 0 && ind > stack[len(stack)-1].indent {
			class := stack[len(stack)-1].name
			if name, ok := javaMethodAt(line, class); ok && (lang == "java" || csharpDeclLike(line, name)) {
				defs = append(defs, Def{Name: name, Kind: "method", Container: class, Line: i + 1})
			}
		}
		if !found && lang == "dart" && len(stack) > 0 && ind > stack[len(stack)-1].indent {
			// A constructor: the class's own name, or a named one (Point.origin).
			class := stack[len(stack)-1].name
			name := ""
			if rest, ok := strings.CutPrefix(trim, class); ok {
				switch end := strings.IndexByte(rest, '('); {
				case end == 0:
					name = class
				case end > 1 && rest[0] == '.' && isIdent(rest[1:end]):
					name = class + rest[:end]
				}
			}
			if name != "" {
				defs = append(defs, Def{Name: name, Kind: "method", Container: class, Line: i + 1})
				found = true
			}
		}
		if !found && lang == "cpp" && len(stack) > 0 && ind > stack[len(stack)-1].indent {
			class := stack[len(stack)-1].name
			// A class named whole (Outer::Inner) has constructors of its
			// last part's name.
			short := class
			if k := strings.LastIndex(class, "::"); k >= 0 {
				short = class[k+2:]
			}
			if name, ok := cConstructorAt(lines, i, short); ok {
				defs = append(defs, Def{Name: name, Kind: "method", Container: class, Line: i + 1})
				found = true
			}
		}
		if !found && (lang == "c" || lang == "cpp") {
			if name, from, ok := cFunctionAt(lines, i); ok {
				d := Def{Name: name, Kind: "function", Line: from + 1}
				if len(stack) > 0 && ind > stack[len(stack)-1].indent {
					d.Container = stack[len(stack)-1].name
					d.Kind = "method"
				}
				defs = append(defs, d)
			}
		}
		if !indentScoped && len(stack) > 0 && ind <= stack[len(stack)-1].indent && (trim == "}" || trim == "};" || strings.HasPrefix(trim, "}")) {
			stack = stack[:len(stack)-1]
		}
	}
	// Approximate end lines: a definition runs until the next one at the same
	// or lower indentation on a later line (a re-export defines several
	// names on one), or the end of the file. In Python it ends before any
	// statement at its indentation or less, and before the comments and
	// decorators that lead to one: module code after a class (an
	// assignment, a call) is not the class's last method's.
	for i := range defs {
		if defs[i].EndLine > 0 {
			continue // a C typedef's, which ends where its brace found it
		}
		end := len(lines)
		ind := indentOf(lines[defs[i].Line-1])
		for j := i + 1; j < len(defs); j++ {
			if defs[j].Line > defs[i].Line && indentOf(lines[defs[j].Line-1]) <= ind {
				end = defs[j].Line - 1
				break
			}
		}
		if statements != nil {
			k, _ := slices.BinarySearch(statements, defs[i].Line+1)
			for ; k < len(statements) && statements[k] <= end; k++ {
				if indentOf(lines[statements[k]-1]) <= ind {
					end = statements[k] - 1
					break
				}
			}
			// Comments and decorators before what ends it are what follows.
			for end > defs[i].Line {
				l := lines[end-1]
				t := strings.TrimSpace(l)
				if t != "" && !(indentOf(l) <= ind && (t[0] == '#' || t[0] == '@')) {
					break
				}
				end--
			}
		}
		if endClosed[lang] {
			// A block closed by "end" ends at its own "end", written at
			// its indentation; a line less indented (the "end" of its
			// module, after a one-line def) is not its.
			for k := defs[i].Line; k < end; k++ {
				l := lines[k]
				t := strings.TrimSpace(l)
				if t == "" || indentOf(l) > ind {
					continue
				}
				if indentOf(l) == ind && isEndLine(t) {
					end = k + 1
				} else {
					end = k
				}
				break
			}
		}
		cDef := (lang == "c" || lang == "cpp") && defs[i].Kind != "function" && defs[i].Kind != "method"
		switch {
		case cDef && defs[i].Kind == "module":
			// A namespace ends at its brace, past the definitions at
			// its indentation that it holds; where no brace closes it
			// (both branches of an #if open one), at its own line.
			if e := braceEnd(lines, defs[i].Line, len(lines)); e > 0 {
				end = e
			} else {
				end = defs[i].Line
			}
		case cDef && strings.HasPrefix(strings.TrimSpace(lines[defs[i].Line-1]), "#"):
			// A macro ends at its line, or the last its backslashes
			// continue it to.
			e := defs[i].Line
			for e < end && strings.HasSuffix(strings.TrimRight(lines[e-1], " \t"), "\\") {
				e++
			}
			end = e
		case cDef:
			// A C or C++ type ends at the brace that closes its body,
			// whatever its labels (public: // Base), comments and
			// preprocessor lines; a declaration whole on its line (a
			// typedef) at its line. Where the braces do not balance
			// before the next definition (an #if's branches each open
			// one), it ends as a nested definition does.
			if e := braceEnd(lines, defs[i].Line, end); e > 0 {
				end = e
			} else if strings.HasSuffix(strings.TrimSpace(cNoComments(lines[defs[i].Line-1])), ";") {
				end = defs[i].Line
			} else {
				end = nestedEnd(lang, lines, defs[i].Line, ind, end)
			}
		case braceClosed[lang] && (ind > 0 || lang != "php"):
			// At the margin too: a struct ends at its brace, not over
			// the impl after it; a var at its own line. (Not PHP's at
			// the margin: a heredoc's end and the HTML after ?> are
			// there.)
			end = nestedEnd(lang, lines, defs[i].Line, ind, end)
		}
		if (lang == "c" || lang == "cpp") && (defs[i].Kind == "function" || defs[i].Kind == "method") {
			// A body ends at its closing brace, not at the next
			// definition: the comment and the statics between are
			// neither's.
			if e := braceEnd(lines, defs[i].Line, end); e > 0 {
				end = e
			}
		}
		if brace {
			// The comments, annotations and attributes before what ends
			// it lead to that, as in Python.
			end = leadingEnd(lines, defs[i].Line, ind, end)
		}
		for end > defs[i].Line && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		defs[i].EndLine = end
	}
	return defs
}

// leadingEnd is where a definition (on line from, indented ind) that runs
// to end at the latest ends once the lines at its end that lead to what
// follows are left out: blank lines, comments (a block comment's inner
// lines one column in), annotations and Rust's attributes, written at its
// indentation or less.
func leadingEnd(lines []string, from, ind, end int) int {
	for end > from {
		l := lines[end-1]
		t := strings.TrimSpace(l)
		if t != "" && (indentOf(l) > ind+1 || !leads(t)) {
			break
		}
		end--
	}
	return end
}

// leads reports whether a line, trimmed, is a comment, an annotation or
// an attribute: what goes before a definition.
func leads(t string) bool {
	for _, p := range []string{"//", "/*", "*", "@", "#[", "#!["} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// braceClosed are the languages whose blocks close with a brace, C and
// C++ aside: braceEnd reads their functions' bodies, nestedEnd their
// types at the margin.
var braceClosed = map[string]bool{"go": true, "javascript": true, "typescript": true, "java": true, "kotlin": true,
	"scala": true, "csharp": true, "rust": true, "swift": true, "php": true, "dart": true}

// nestedEnd is where a definition of a brace language (indented ind, on
// line from: nested in another, or at the margin) ends, at end at the
// latest: at the line that closes it at its own indentation (}, }), ]),
// before a closing line less indented (its parent's), or before a
// statement at its indentation. The next definition at its indentation or
// less, which ends a definition otherwise, may lie far past it: a nested
// function's end would run to its parent's, and take its parent's lines
// for its own; a struct's, over the impl after it. A signature going on at
// its indentation (a { on a line of its own, a ) or a generic's > that
// closes its parameters, a } that opens again as destructured parameters
// do, Rust's where, Kotlin's constructor) is its, and so is a label (Go's
// main:, C++'s public:); so are the lines less indented that close nothing
// (a string's, a heredoc's, #if and #endif), and those of a string over
// several lines (stringScan).
func nestedEnd(lang string, lines []string, from, ind, end int) int {
	strs := newStringScan(lang)
	strs.line(lines[from-1])
	html := lang == "php" && phpLeaves(lines[from-1], false)
	for k := from; k < end; k++ { // lines[k] is line k+1
		l := lines[k]
		if strs.line(l) {
			continue // a line of a string over lines, its last too
		}
		if lang == "php" {
			// What PHP writes out between ?> and <?php is no code.
			was := html
			if html = phpLeaves(l, html); was {
				continue
			}
		}
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' {
			continue
		}
		li := indentOf(l)
		// At its indentation, a line that closes a bracket and opens
		// another goes on: the destructured parameters' }: {, then
		// }) => {.
		closing := t[0] == '}' || t[0] == ')' || t[0] == ']'
		switch {
		case li > ind:
			continue
		case li < ind:
			if closing {
				return k
			}
			continue
		case t[0] == '{' || t[0] == ')' || t[0] == '>' || closing && opensAgain(t) || t == "where" || strings.HasPrefix(t, "where ") || isLabel(t) ||
			kotlinConstructor().MatchString(t) || leads(t) && signatureGoesOn(lines, k+1, ind):
			// A signature going on (a generic's parameters closing at
			// the margin: > {), or a label, which gofmt writes at the
			// margin (main:).
			continue
		case closing:
			return k + 1
		}
		return k
	}
	return end
}

// endClosed are the languages whose blocks close with a line "end".
var endClosed = map[string]bool{"ruby": true, "elixir": true, "lua": true, "julia": true}

// isEndLine reports whether a trimmed line closes a block: "end", or
// "end" and what may follow it on its line ("end)", "end # module").
func isEndLine(t string) bool {
	rest, ok := strings.CutPrefix(t, "end")
	return ok && (rest == "" || !isIdentPart(rest[0]))
}

// ind0 reports whether a line starts at the margin.
func ind0(line string) bool {
	return line != "" && line[0] != ' ' && line[0] != '\t'
}

// pythonStatements lists the lines, 1-based, that start a statement in
// Python source: not blank, not a comment, not inside a triple-quoted
// string or inside brackets left open by a line before. It reads strings
// and brackets as a scanner would, closely enough for end lines.
func pythonStatements(lines []string) []int {
	var out []int
	// quote: the quote a string is open with across lines, triple, or
	// single after a backslash ending its line.
	var quote string
	depth := 0         // brackets open
	continued := false // the line before ended with a backslash
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if quote == "" && (strings.HasPrefix(line, "def ") || strings.HasPrefix(line, "class ") || strings.HasPrefix(line, "async def ") || strings.HasPrefix(line, "@")) {
			// A definition at the margin starts a statement whatever came
			// before: brackets the scan lost count of cost one block.
			depth, continued = 0, false
		}
		if quote == "" && depth == 0 && !continued && t != "" && t[0] != '#' && !strings.HasPrefix(t, ")") && !strings.HasPrefix(t, "]") && !strings.HasPrefix(t, "}") {
			out = append(out, i+1)
		}
		comment := false
		for j := 0; j < len(line); j++ {
			c := line[j]
			if quote != "" {
				if c == '\\' {
					j++
				} else if strings.HasPrefix(line[j:], quote) {
					j += len(quote) - 1
					quote = ""
				} else if len(quote) == 1 && j == len(line)-1 {
					quote = "" // a single-quoted string cannot run past a line not continued
				}
				continue
			}
			switch c {
			case '#':
				j, comment = len(line), true
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(depth-1, 0)
			case '"', '\'':
				if q := line[j : j+min(3, len(line)-j)]; q == `"""` || q == "'''" {
					quote = q
					j += 2
					continue
				}
				// A one-line string: to its closing quote, or the line's
				// end, where a backslash carries it to the next line.
				for j++; j < len(line) && line[j] != c; j++ {
					if line[j] == '\\' {
						if j == len(line)-1 {
							quote = string(c)
						}
						j++
					}
				}
			}
		}
		continued = !comment && quote == "" && strings.HasSuffix(line, "\\")
	}
	return out
}

// mayDefine is a cheap test that lets most lines skip the patterns: a line
// no pattern of the family can match.
func mayDefine(lang, line, trim string) bool {
	first := trim
	if i := strings.IndexAny(trim, " \t(<{:="); i >= 0 {
		first = trim[:i]
	}
	indented := line[0] == ' ' || line[0] == '\t'
	switch lang {
	case "go":
		if !indented {
			return first == "func" || first == "type" || first == "const" || first == "var"
		}
		return line[0] == '\t' && strings.Contains(line, "=")
	case "python":
		switch first {
		case "def", "async", "class":
			return true
		}
		return !indented && strings.Contains(line, "=")
	case "javascript", "typescript", "vue", "svelte":
		switch first {
		case "export", "function", "class", "interface", "type", "enum", "const", "let", "var", "async", "abstract", "declare", "default":
			return true
		}
		if indented && strings.Contains(trim, "(") && strings.Contains(trim, "{") {
			return true // a method, its brace perhaps followed by a comment
		}
		// A function or a class given to a member, a property or a name:
		// the line's first word is set (proto.week = function, html:
		// () => {), not called or returned.
		rest := strings.TrimLeft(trim[len(first):], " \t")
		set := strings.HasPrefix(rest, ":") ||
			strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") && !strings.HasPrefix(rest, "=>")
		return set && (strings.Contains(rest, "function") || strings.Contains(rest, "=>") || strings.Contains(rest, "class "))
	case "swift":
		return holdsAny(trim, "func ", "init", "subscript", "class ", "struct ", "actor ", "protocol ", "enum ", "extension ", "typealias ")
	case "dart":
		return holdsAny(trim, "(", "class ", "mixin ", "enum ", "extension ", "typedef ", "get ", "set ")
	case "kotlin":
		return holdsAny(trim, "fun ", "class ", "object ", "interface ", "typealias ")
	case "scala":
		return holdsAny(trim, "def ", "class ", "object ", "trait ", "enum ", "type ")
	case "java", "csharp":
		return holdsAny(trim, "(", "class ", "interface ", "enum ", "object ", "record ", "struct ", "trait ")
	case "rust":
		switch first {
		case "pub", "fn", "struct", "enum", "trait", "const", "static", "mod", "type", "async", "unsafe", "extern", "union":
			return true
		}
		return strings.HasPrefix(first, "pub") || strings.HasPrefix(first, "macro_rules!")
	case "c", "cpp":
		// A type or namespace may be indented in the namespace or class
		// that holds it (namespace app {, then class Session {); the
		// type pattern needs its body, or its line's end, so that a
		// variable (struct stat st;) is none, and an indented one its
		// brace (see cIndentedType). An alias indented (using value_type
		// = T;, every container's member types, or a template's) is not
		// read.
		switch first {
		case "class", "struct", "union", "enum", "namespace":
			return true
		case "inline":
			return !indented || strings.HasPrefix(trim, "inline namespace")
		case "template":
			if !indented {
				return true
			}
			// Its type on its line, not an alias's nor a function's; a
			// type on the next line is read there.
			f := strings.Fields(cAfterTemplate(trim))
			return len(f) > 0 && (f[0] == "class" || f[0] == "struct" || f[0] == "union")
		}
		return !indented
	case "ruby":
		switch first {
		case "def", "class", "module":
			return true
		case "private", "protected", "public", "module_function":
			return strings.Contains(trim, "def ")
		}
		return false
	case "php":
		return holdsAny(trim, "function", "class ", "interface ", "trait ", "enum ")
	case "shell":
		return strings.Contains(trim, "()") || first == "function"
	case "markdown":
		return trim[0] == '#'
	case "lua", "r":
		return strings.Contains(trim, "function")
	case "elixir":
		return strings.Contains(trim, "def")
	case "perl":
		return first == "sub" || first == "package"
	case "julia":
		return holdsAny(trim, "function", "macro", "struct", "type ", "module") || !indented && strings.Contains(trim, "=")
	}
	return true
}

func isConstName(s string) bool {
	// Module-level Python assignments worth listing: CONSTANTS and aliases of
	// classes (CamelCase); plain lower-case variables are mostly noise.
	hasLetter := false
	for _, c := range s {
		if c >= 'a' && c <= 'z' {
			return s[0] >= 'A' && s[0] <= 'Z'
		}
		if c >= 'A' && c <= 'Z' {
			hasLetter = true
		}
	}
	return hasLetter
}

var (
	jsReexport  = lazyre.New(`^export\s+(?:type\s+)?\{([^}]*)\}\s*from\s`)
	jsImport    = lazyre.New(`(?:\bfrom\s+|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]`)
	pyFrom      = lazyre.New(`^\s*from\s+(\.*[\w.]*)\s+import\s+(.+)`)
	pyImport    = lazyre.New(`^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)`)
	goImportOne = lazyre.New(`^import\s+(?:\w+\s+|\.\s+|_\s+)?"([^"]+)"`)
	goImportIn  = lazyre.New(`^\s*(?:\w+\s+|\.\s+|_\s+)?"([^"]+)"`)
	cInclude    = lazyre.New(`^\s*#\s*include\s+(?:"([^"]+)"|(<[^>]+>))`)
	javaImport  = lazyre.New(`^\s*import\s+(?:static\s+)?([\w.]+)(?:\.\*)?\s*;?`)
	rustUse     = lazyre.New(`^\s*(?:pub(?:\([^)]*\))?\s+)?(use|mod)\s+([^;]+)`)
	rubyReq     = lazyre.New(`^\s*require(?:_relative)?\s+['"]([^'"]+)['"]`)
)

// maxUseLines bounds the lines a Rust use tree is read over by the line
// patterns.
const maxUseLines = 64

func extractImports(lang string, lines []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	inGoBlock := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if len(line) > 400 {
			continue
		}
		switch lang {
		case "javascript", "typescript", "vue", "svelte":
			if strings.Contains(line, "import") || strings.Contains(line, "require") || strings.Contains(line, "from") {
				for _, m := range jsImport().FindAllStringSubmatch(line, -1) {
					add(m[1])
				}
			}
		case "python":
			if !strings.Contains(line, "import") {
				continue // both patterns need the word
			}
			if m := pyFrom().FindStringSubmatch(line); m != nil {
				// "from pkg import mod" may name modules as well as
				// definitions: keep both forms, resolution sorts them out.
				mod := m[1]
				add(mod)
				for _, name := range strings.Split(strings.Trim(m[2], "() \\"), ",") {
					name = strings.TrimSpace(strings.SplitN(strings.TrimSpace(name), " ", 2)[0])
					if name == "" || name == "*" {
						continue
					}
					if strings.HasSuffix(mod, ".") {
						add(mod + name)
					} else {
						add(mod + "." + name)
					}
				}
			} else if m := pyImport().FindStringSubmatch(line); m != nil {
				for _, name := range strings.Split(m[1], ",") {
					add(strings.TrimSpace(name))
				}
			}
		case "go":
			t := strings.TrimSpace(line)
			if inGoBlock {
				if strings.HasPrefix(t, ")") {
					inGoBlock = false
				} else if m := goImportIn().FindStringSubmatch(line); m != nil {
					add(m[1])
				}
			} else if t == "import (" {
				inGoBlock = true
			} else if m := goImportOne().FindStringSubmatch(t); m != nil {
				add(m[1])
			}
		case "c", "cpp":
			if m := cInclude().FindStringSubmatch(line); m != nil {
				add(m[1] + m[2]) // an angled one keeps its brackets: Resolve reads it apart
			}
		case "java", "kotlin", "scala", "csharp":
			if m := javaImport().FindStringSubmatch(line); m != nil {
				add(m[1])
			}
		case "rust":
			// A module with its body here ("mod tests {") is no file; an
			// indented super or self path is most often inside such a
			// module, where it means another module than the file's.
			if m := rustUse().FindStringSubmatch(line); m != nil && (m[1] == "use" || !strings.Contains(m[2], "{")) &&
				!(line != strings.TrimLeft(line, " \t") && (strings.HasPrefix(m[2], "super") || strings.HasPrefix(m[2], "self"))) {
				tree := m[2]
				// A tree over several lines, as rustfmt writes a long one:
				// the lines up to its ";", a few dozen at the most.
				// Without its ";" so near, the first line alone.
				if m[1] == "use" && !strings.Contains(line, ";") {
					more := tree
					for j := i + 1; j < len(lines) && j <= i+maxUseLines; j++ {
						if end := strings.IndexByte(lines[j], ';'); end >= 0 {
							tree, i = more+"\n"+lines[j][:end], j
							break
						}
						more += "\n" + lines[j]
					}
				}
				for _, p := range RustUsePaths(tree) {
					add(p)
				}
			}
		case "ruby":
			if m := rubyReq().FindStringSubmatch(line); m != nil {
				add(m[1])
			}
		}
	}
	return out
}

// Calls lists the call sites in src: identifiers directly followed by "(",
// spaces allowed between. Lines over 400 bytes (minified code, data) are
// skipped.
func Calls(src []byte) []Call {
	var out []Call
	eachCall(src, func(name []byte, line int) {
		out = append(out, Call{Name: string(name), Line: line})
	})
	return out
}

// CallNames lists the names Calls finds in text, each once, in byte
// order, but for the names of defs: a name is copied once, however often
// it is called.
func CallNames(text string, defs []Def) []string {
	seen := make(map[string]struct{}, len(defs))
	for _, d := range defs {
		seen[d.Name] = struct{}{}
	}
	var out []string
	eachCall(unsafe.Slice(unsafe.StringData(text), len(text)), func(name []byte, _ int) { // read, never written
		if _, ok := seen[string(name)]; !ok {
			n := string(name)
			seen[n] = struct{}{}
			out = append(out, n)
		}
	})
	sort.Strings(out)
	return out
}

// eachCall calls fn with each call site's name, a part of src, and line.
func eachCall(src []byte, fn func(name []byte, line int)) {
	for line := 1; len(src) > 0; line++ {
		l := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			l, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if len(l) > 400 || bytes.IndexByte(l, '(') < 0 {
			continue
		}
		for i := 0; i < len(l); i++ {
			if !isIdentStart(l[i]) || i > 0 && isIdentPart(l[i-1]) {
				continue
			}
			j := i + 1
			for j < len(l) && isIdentPart(l[j]) {
				j++
			}
			k := j
			for k < len(l) && (l[k] == ' ' || l[k] == '\t') {
				k++
			}
			if k < len(l) && l[k] == '(' {
				if name := l[i:j]; !notNames[string(name)] && !notCalls[string(name)] {
					fn(name, line)
				}
			}
			i = j - 1
		}
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}
