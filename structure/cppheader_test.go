package structure

import (
	"strings"
	"testing"
)

// TestLanguageOf: a .h file is C's by its name and C++'s by its text; no
// other file's language depends on its text.
func TestLanguageOf(t *testing.T) {
	for _, tt := range []struct {
		name, path, text, want string
	}{
		{"C header", "src/list.h", "#ifndef LIST_H\n#define LIST_H\n#include <stddef.h>\n\nstruct list { int n; };\nint list_len(const struct list *l);\n#endif\n", "c"},
		{"C header guarded for C++", "include/codec.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\ntypedef struct codec codec;\n\n#ifdef __cplusplus\n}\n#endif\n", "c"},
		{"C words in comments", "lib/a.h", "/* a class of errors;\n   namespace of the library,\n   template <for the reader> */\n// using namespace std in C++ callers\nint a(void);\n", "c"},
		{"a C identifier named class", "lib/b.h", "struct token {\n  int class;\n  class = 3,\n};\n", "c"},
		{"namespace", "include/txt/base.h", "#pragma once\nnamespace txt {\nint f();\n}\n", "cpp"},
		{"inline namespace", "include/txt/base.h", "inline namespace v11 {\n}\n", "cpp"},
		{"template", "include/wchars.h", "/* the chars */\ntemplate <typename Char>\nauto to_n(Char c) -> int;\n", "cpp"},
		{"class with a macro", "src/db.h", "class DB_API Reader : public Base {\n};\n", "cpp"},
		{"forward class", "src/fwd.h", "class Reader;\n", "cpp"},
		{"access label", "src/s.h", "struct S {\n public:\n  int x;\n};\n", "cpp"},
		{"std", "src/s.h", "typedef std::vector<int> ints;\n", "cpp"},
		{"using", "src/s.h", "using value_type = int;\n", "cpp"},
		{"standard header", "src/s.h", "#include <cstdint>\nint32_t f(void);\n", "cpp"},
		{"standard header with a C name", "src/s.h", "#include <sys/types.h>\n#include <stdint.h>\n", "c"},
		{"after a comment closed on its line", "src/s.h", "/* x */ namespace a {\n}\n", "cpp"},
		{"a comment begun after code", "src/x.h", "int a; /* the flag,\n   using the lock below */\n", "c"},
		{"a comment begun after an enum's value", "src/x.h", "enum e { E_A, /* errors of\n class A and B */ };\n", "c"},
		{"a comment begun on a directive", "src/x.h", "#define MAXN 16 /* max\n   using this many */\n", "c"},
		{"code after a comment closed on a later line", "src/x.h", "int a; /* x\n */ namespace n {\n", "cpp"},
		{"std:: in a string", "src/x.h", "static const char msg[] = \"not std::string\";\n", "c"},
		{"std:: in a line comment", "src/x.h", "int n; // like std::size_t\n", "c"},
		{"std:: in a block comment", "src/x.h", "int n; /* like std::size_t */\n", "c"},
		{"a byte-order mark", "src/x.h", "\ufeffnamespace a {\n", "cpp"},
		{"a byte-order mark before a comment", "src/x.h", "\ufeff/*\n using this file\n */\nint a;\n", "c"},
		{"a macro's continued line", "src/x.h", "#define DECL(T) \\\n  namespace T {\nint a;\n", "c"},
		{"a C++ header included", "src/x.h", "#include <boost/shared_ptr.hpp>\n", "cpp"},
		{"template alone on its line", "src/x.h", "template\n<typename T> T f(T);\n", "cpp"},
		{"an access label with a comment", "src/x.h", "struct S {\n public:  // api\n  int x;\n};\n", "cpp"},
		{"a cast", "src/x.h", "static inline unsigned f(long x) { return static_cast<unsigned>(x); }\n", "cpp"},
		{"a scope", "src/x.h", "#define LOG(x) x\nvoid f() { LIB_NS::Log(1); }\n", "cpp"},
		{"a C23 attribute", "src/x.h", "[[gnu::unused]] static int x;\n", "c"},
		{"extern C++", "src/x.h", "extern \"C++\" {\n", "cpp"},
		{"a C++ header included by quotes", "src/x.h", "#include \"detail/impl.HPP\"\n", "cpp"},
		{"a C header included by quotes", "src/x.h", "#include \"detail/impl.h\"\n", "c"},
		{"a C++ include for C++ readers", "src/x.h", "#ifdef __cplusplus\n#include <cstddef>\nextern \"C\" {\n#else\n#include <stddef.h>\n#endif\nint f(void);\n", "c"},
		{"a C++ helper for C++ readers", "src/x.h", "#if defined(__cplusplus) && __cplusplus >= 201103L\ntemplate <typename T> T cast(long x) { return static_cast<T>(x); }\n#endif\nint f(void);\n", "c"},
		{"the C++ branch of ifndef", "src/x.h", "#ifndef __cplusplus\ntypedef int bool_t;\n#else\nnamespace lib {}\n#endif\n", "c"},
		{"C++ after a guard for C++ readers", "src/x.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\n#ifdef __cplusplus\n}\n#endif\nnamespace lib {\n}\n", "cpp"},
		{"C++ under another conditional", "src/x.h", "#if defined(__cplusplus) && !defined(NO_LIB)\n#endif\n#ifdef HAVE_X\nclass Reader;\n#endif\n", "cpp"},
		{"nullptr", "src/x.h", "static inline bool empty(const Slice* s) { return s->data == nullptr; }\n", "cpp"},
		{"constexpr", "src/x.h", "#pragma once\nconstexpr int kMaxLevels = 7;\n", "cpp"},
		{"noexcept", "src/x.h", "void swap(Buf& a, Buf& b) noexcept;\n", "cpp"},
		{"virtual", "src/x.h", "struct Env {\n  virtual ~Env();\n};\n", "cpp"},
		{"a default constructor", "src/x.h", "struct A {\n  A() = default;\n};\n", "cpp"},
		{"a deleted copy", "src/x.h", "struct A {\n  A(const A&) = delete;\n};\n", "cpp"},
		{"a virtual method", "src/x.h", "class_like(Env) {\n  virtual Status Get(int k) = 0;\n};\n", "cpp"},
		{"a C field named virtual", "src/x.h", "struct page {\n\tunsigned long flags;\n#if defined(WANT_PAGE_VIRTUAL)\n\tvoid *virtual;\n#endif\n};\n", "c"},
		{"a C field named typename", "src/x.h", "struct type_info {\n\tconst char *typename;\n};\n", "c"},
		{"a member defaulted after a tab", "src/x.h", "struct A {\n  A() =\tdefault ;\n};\n", "cpp"},
		{"a comparison with default", "src/x.h", "#define X 1\nint f(void) { return mode == default; }\n", "c"},
		{"a variable named default_delete", "src/x.h", "int x = my_default;\n", "c"},
		{"nullptr in a comment", "src/x.h", "/* like nullptr in C++ */\nint f(void);\n", "c"},
		{"a word that holds a C++ word", "src/x.h", "int constexpr_ok; int my_nullptr;\n", "c"},
		{"virtual in a string", "src/x.h", "#define NAME \"virtual\"\n", "c"},
		{"not a header", "src/a.c", "namespace x {\n", "c"},
		{"C++ by name", "src/a.hpp", "int f(void);\n", "cpp"},
		{"Python", "a.py", "class A:\n", "python"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := LanguageOf(tt.path, tt.text); got != tt.want {
				t.Errorf("LanguageOf(%q) = %q, want %q", tt.path, got, tt.want)
			}
			if got := LanguageOfLines(tt.path, strings.Split(tt.text, "\n")); got != tt.want {
				t.Errorf("LanguageOfLines(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

// TestExtractCppHeader: a C++ header named .h is outlined as C++: its
// outline's language says so, and a template's name is its own, not that
// of the function its body calls.
func TestExtractCppHeader(t *testing.T) {
	src := "#pragma once\n#include <string>\n\nnamespace txt {\n\ntemplate <typename OutputIt, typename... T>\nauto render_to_n(OutputIt out, size_t n, const T&... args) -> result<OutputIt> {\n  return vrender_to_n(out, n, args...);\n}\n\n}  // namespace txt\n"
	for _, o := range []Outline{Extract("include/txt/chars.h", []byte(src)), ExtractFallback("include/txt/chars.h", []byte(src))} {
		if o.Lang != "cpp" {
			t.Errorf("%s: language %q, want cpp", o.Parser, o.Lang)
		}
		var names []string
		for _, d := range o.Defs {
			names = append(names, d.Name)
		}
		if !strings.Contains(strings.Join(names, " "), "render_to_n") || strings.Contains(" "+strings.Join(names, " ")+" ", " vrender_to_n ") {
			t.Errorf("%s: definitions %q, want render_to_n and not vrender_to_n", o.Parser, names)
		}
	}
}

func BenchmarkLanguageOfC(b *testing.B) {
	text := strings.Repeat("/* a comment */\nstruct list { int n; };\nint list_len(const struct list *l);\n", 2000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		LanguageOf("src/list.h", text)
	}
}

// TestCppPointerDeclarations: tree-sitter's C++ outline names functions
// and methods declared or defined returning a pointer, a pointer to a
// pointer or a reference, as C's outline names them.
func TestCppPointerDeclarations(t *testing.T) {
	if Parser() != ParserTreeSitter {
		t.Skip("tree-sitter needs cgo")
	}
	src := "namespace cache {\nclass Table {\n public:\n  Handle** FindSlot(const Key& key, unsigned hash);\n  char* Name();\n  int& Count();\n  Handle** Head() { return &head_; }\n};\nHandle** find_slot(Table* t);\nNode& top(Stack& s);\nchar** split_words(const char* s) { return 0; }\n}\n"
	o := Extract("src/table.h", []byte(src))
	got := map[string]bool{}
	for _, d := range o.Defs {
		got[d.Name] = true
	}
	for _, name := range []string{"FindSlot", "Name", "Count", "Head", "find_slot", "top", "split_words"} {
		if !got[name] {
			t.Errorf("%s not among the definitions %v (%s, %s)", name, o.Defs, o.Lang, o.Parser)
		}
	}
}
