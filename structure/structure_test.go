package structure

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

type wantDef struct {
	name, kind, container string
	line                  int
}

func TestExtractDefs(t *testing.T) {
	tests := []struct {
		path string
		src  string
		want []wantDef
		// exact: what tree-sitter finds, which the patterns do not.
		exact bool
	}{
		{"a.go", `package a

// Server serves.
type Server struct {
	addr string
}

type Handler interface {
	Serve()
}

const MaxConns = 10

func New(addr string) *Server {
	return &Server{addr: addr}
}

func (s *Server) Start() error {
	return nil
}

func (s Server[T]) Stop() {}
`, []wantDef{
			{"Server", "type", "", 4}, {"Handler", "interface", "", 8}, {"MaxConns", "constant", "", 12},
			{"New", "function", "", 14}, {"Start", "method", "Server", 18}, {"Stop", "method", "Server", 22},
		}, false},
		{"m.py", `import os

MAX_RETRIES = 3
logger = get_logger()

class Session(Base):
    timeout = 5

    def refresh(self):
        pass

    async def close(self):
        pass

def make_session():
    return Session()
`, []wantDef{
			{"MAX_RETRIES", "variable", "", 3}, {"Session", "class", "", 6},
			{"refresh", "method", "Session", 9}, {"close", "method", "Session", 12}, {"make_session", "function", "", 15},
		}, false},
		{"s.ts", `import { signJwt } from '../lib/jwt-utils';

export interface SessionOptions {
  ttl: number;
}

export type SessionId = string;

export class SessionManager {
  private store = new Map();

  async refresh(id: SessionId): Promise<string> {
    if (this.store.has(id)) {
      return signJwt({ sub: id });
    }
    return '';
  }
}

export function refreshSession(id: string) {
  return manager.refresh(id);
}

export const DEFAULT_TTL = 3600;
const handler = async (req) => {
  foo(req);
};
`, []wantDef{
			{"SessionOptions", "interface", "", 3}, {"SessionId", "type", "", 7}, {"SessionManager", "class", "", 9},
			{"refresh", "method", "SessionManager", 12}, {"refreshSession", "function", "", 20},
			// handler holds a function.
			{"DEFAULT_TTL", "variable", "", 24}, {"handler", "function", "", 25},
		}, true},
		{"lib.rs", `pub struct Pool {
    size: usize,
}

impl Pool {
    pub fn new(size: usize) -> Self {
        Pool { size }
    }
}

pub trait Conn {}
enum State { A, B }
`, []wantDef{
			// tree-sitter places new in Pool's impl block: a method of
			// Pool (the fallback patterns saw a free function).
			{"Pool", "type", "", 1}, {"new", "method", "Pool", 6}, {"Conn", "interface", "", 11}, {"State", "enum", "", 12},
		}, true},
		// A re-export defines several names on one line, each ending there.
		{"x.js", "export { a as renew, verify } from './session';\n\nexport function f() {\n}\n", []wantDef{
			{"renew", "export", "", 1}, {"verify", "export", "", 1}, {"f", "function", "", 3},
		}, false},
		{"README.md", "# hone\n\nText.\n\n## Install\n", []wantDef{{"hone", "section", "", 1}, {"Install", "section", "", 5}}, false},
		{"data.unknownext", "func notCode() {}\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if tt.exact {
				needTreeSitter(t)
			}
			o := Extract(tt.path, []byte(tt.src))
			var got []wantDef
			for _, d := range o.Defs {
				got = append(got, wantDef{d.Name, d.Kind, d.Container, d.Line})
				if d.EndLine < d.Line {
					t.Errorf("%s: end line %d before line %d", d.Name, d.EndLine, d.Line)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("defs:\n got  %v\n want %v", got, tt.want)
			}
			for _, d := range ExtractFallback(tt.path, []byte(tt.src)).Defs {
				if d.EndLine < d.Line {
					t.Errorf("fallback: %s: end line %d before line %d", d.Name, d.EndLine, d.Line)
				}
			}
		})
	}
}

// needTreeSitter skips a test whose expectations are tree-sitter's in a
// build without it.
func needTreeSitter(t testing.TB) {
	t.Helper()
	if Parser() != ParserTreeSitter {
		t.Skip("needs tree-sitter, whose grammars need cgo: this build (CGO_ENABLED=0) outlines with line patterns")
	}
}

// Parser names the build's extractor, and Extract uses it.
func TestParser(t *testing.T) {
	if got := Parser(); got != wantParser {
		t.Fatalf("Parser() = %q, want %q", got, wantParser)
	}
	src := []byte("package a\n\nfunc F() {}\n")
	o := Extract("a.go", src)
	if Parser() == ParserTreeSitter {
		if o.Parser != ParserTreeSitter || len(TreeSitterLanguages()) == 0 {
			t.Errorf("with tree-sitter: outline by %q, languages %q", o.Parser, TreeSitterLanguages())
		}
		return
	}
	// Without tree-sitter, every file gets the patterns, with no error.
	before := ParseStats()
	if want := ExtractFallback("a.go", src); !reflect.DeepEqual(o, want) || o.Parser != ParserFallback || o.Err != "" {
		t.Errorf("without tree-sitter:\n got  %+v\n want %+v", o, want)
	}
	if len(o.Defs) != 1 || o.Defs[0].Name != "F" {
		t.Errorf("defs %+v", o.Defs)
	}
	if langs := TreeSitterLanguages(); len(langs) != 0 {
		t.Errorf("TreeSitterLanguages() = %q without tree-sitter", langs)
	}
	Extract("b.py", []byte("def f():\n    pass\n"))
	if after := ParseStats(); after != before {
		t.Errorf("stats moved without tree-sitter: %+v, then %+v", before, after)
	}
}

func TestExtractEndLines(t *testing.T) {
	src := "def a():\n    x = 1\n    return x\n\n\ndef b():\n    pass\n"
	o := Extract("x.py", []byte(src))
	if len(o.Defs) != 2 || o.Defs[0].EndLine != 3 || o.Defs[1].EndLine != 7 {
		t.Fatalf("end lines: %+v", o.Defs)
	}
}

func TestExtractImports(t *testing.T) {
	tests := []struct {
		path, src string
		want      []string
	}{
		{"a.ts", "import { a } from './a';\nimport * as b from \"../b/c\";\nconst d = require('./d');\nimport './side';\n", []string{"./a", "../b/c", "./d", "./side"}},
		{"a.py", "import os, sys\nfrom . import views\nfrom ..db.models import Model, Field as F\nfrom shop.conf import settings\n",
			[]string{"os", "sys", ".", ".views", "..db.models", "..db.models.Model", "..db.models.Field", "shop.conf", "shop.conf.settings"}},
		{"a.go", "package a\n\nimport \"fmt\"\n\nimport (\n\t\"os\"\n\tix \"example.com/m/index\"\n)\n", []string{"fmt", "os", "example.com/m/index"}},
		{"a.c", "#include <stdio.h>\n#include \"util/buf.h\"\n#  include <lib/json.hpp>\n", []string{"<stdio.h>", "util/buf.h", "<lib/json.hpp>"}},
		{"A.java", "import java.util.List;\nimport com.acme.auth.Token;\n", []string{"java.util.List", "com.acme.auth.Token"}},
		{"a.rb", "require 'json'\nrequire_relative 'lib/auth'\n", []string{"json", "lib/auth"}},
		{"a.rs", "use std::fmt;\npub(crate) use crate::a::{b, c::D as E};\nmod util;\nmod tests {\n}\n", []string{"std::fmt", "crate::a::b", "crate::a::c::D", "util"}},
		{"b.rs", "use crate::foo::{\n    Bar,\n    baz::{Qux, Quux},\n};\nuse super::x;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::z;\n}\n",
			[]string{"crate::foo::Bar", "crate::foo::baz::Qux", "crate::foo::baz::Quux", "super::x", "crate::z"}},
	}
	for _, tt := range tests {
		o := Extract(tt.path, []byte(tt.src))
		if !reflect.DeepEqual(o.Imports, tt.want) {
			t.Errorf("%s imports:\n got  %q\n want %q", tt.path, o.Imports, tt.want)
		}
		// Rust's line patterns read the same, trees over lines included.
		if strings.HasSuffix(tt.path, ".rs") {
			if o := ExtractFallback(tt.path, []byte(tt.src)); !reflect.DeepEqual(o.Imports, tt.want) {
				t.Errorf("%s imports by the line patterns:\n got  %q\n want %q", tt.path, o.Imports, tt.want)
			}
		}
	}
}

func TestResolve(t *testing.T) {
	files := map[string]bool{
		"src/auth/auth.ts": true, "src/session/session-manager.ts": true, "src/middleware/index.ts": true,
		"pkg/db/models/__init__.py": true, "pkg/db/models/fields.py": true, "pkg/views.py": true, "pkg/db/utils.py": true,
		"index/": true, "index/index.go": true, "include/util/buf.h": true, "src/util/buf.h": true,
	}
	exists := func(p string) bool { return files[p] }
	tests := []struct {
		lang, from, spec string
		want             []string
	}{
		{"typescript", "src/auth/auth.ts", "../session/session-manager", []string{"src/session/session-manager.ts"}},
		{"typescript", "src/auth/auth.ts", "../middleware", []string{"src/middleware/index.ts"}},
		{"typescript", "src/auth/auth.ts", "lodash", nil},
		{"python", "pkg/db/utils.py", ".models", []string{"pkg/db/models/__init__.py"}},
		{"python", "pkg/db/utils.py", ".models.fields", []string{"pkg/db/models/fields.py"}},
		{"python", "pkg/db/models/fields.py", "...views", []string{"pkg/views.py"}},
		{"python", "x.py", "pkg.db.models.fields", []string{"pkg/db/models/fields.py"}},
		{"python", "x.py", "os.path", nil},
		{"go", "cmd/main.go", "github.com/x/y/index", []string{"index/"}},
		{"c", "src/main.c", "util/buf.h", []string{"src/util/buf.h"}},
		{"cpp", "src/util/buf.cc", "<util/buf.h>", []string{"include/util/buf.h"}}, // on the include path, not beside
		{"cpp", "src/main.cc", "<vector>", nil},
		{"cpp", "src/main.cc", "<../src/util/buf.h>", nil},
		{"c", "src/util/x.c", "buf.h", []string{"src/util/buf.h"}},
	}
	for _, tt := range tests {
		got := Resolve(tt.lang, tt.from, tt.spec, exists)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Resolve(%s, %s, %s) = %q, want %q", tt.lang, tt.from, tt.spec, got, tt.want)
		}
	}
}

// TestResolveRust places use paths and mod declarations in a workspace's
// crates, each file's crate root found above it.
func TestResolveRust(t *testing.T) {
	files := map[string]bool{}
	for _, p := range []string{
		// a library crate in a workspace
		"exec/src/lib.rs", "exec/src/engine/mod.rs", "exec/src/engine/job/mod.rs", "exec/src/engine/job/driver.rs",
		"exec/src/engine/job/status.rs", "exec/src/engine/dispatch.rs", "exec/src/engine/dispatch/lane.rs",
		"exec/src/io.rs", "exec/src/bin/cli.rs", "exec/tests/net.rs", "exec/tests/support/mod.rs", "exec/build.rs",
		// a binary crate without a src folder
		"crates/app/main.rs", "crates/app/opts/mod.rs", "crates/app/opts/table.rs", "crates/app/scan.rs",
	} {
		files[p] = true
	}
	exists := func(p string) bool { return files[p] }
	tests := []struct {
		from, spec string
		want       string
	}{
		{"exec/src/engine/dispatch/lane.rs", "crate::engine::job::driver::Driver", "exec/src/engine/job/driver.rs"},
		{"exec/src/engine/dispatch/lane.rs", "crate::engine::job::Woken", "exec/src/engine/job/mod.rs"},
		{"exec/src/engine/dispatch/lane.rs", "crate::io", "exec/src/io.rs"},
		{"exec/src/engine/dispatch/lane.rs", "crate::Error", ""}, // the root file alone: a hub
		{"exec/src/engine/dispatch/lane.rs", "super::Handle", "exec/src/engine/dispatch.rs"},
		{"exec/src/engine/dispatch/lane.rs", "super::super::job::status", "exec/src/engine/job/status.rs"},
		{"exec/src/engine/job/driver.rs", "super::status::Status", "exec/src/engine/job/status.rs"},
		{"exec/src/engine/job/mod.rs", "self::status", "exec/src/engine/job/status.rs"},
		{"exec/src/engine/job/mod.rs", "self::Job", ""},                             // an item of the file itself
		{"exec/src/engine/job/mod.rs", "driver", "exec/src/engine/job/driver.rs"},   // mod driver;
		{"exec/src/engine/dispatch.rs", "lane", "exec/src/engine/dispatch/lane.rs"}, // a child of a non-mod.rs file
		{"exec/src/lib.rs", "engine", "exec/src/engine/mod.rs"},                     // mod engine;
		{"exec/src/engine/mod.rs", "io::Read", "exec/src/io.rs"},                    // 2015: from the root
		{"exec/src/engine/mod.rs", "std::io::Read", ""},                             // another crate
		{"exec/src/lib.rs", "super::x", ""},                                         // above the root
		{"exec/tests/net.rs", "support", "exec/tests/support/mod.rs"},               // a test is its own root
		{"exec/src/bin/cli.rs", "crate::engine", ""},                                // so is a binary
		{"crates/app/opts/table.rs", "crate::scan::ScanWorker", "crates/app/scan.rs"},
		{"crates/app/opts/table.rs", "super::parse", "crates/app/opts/mod.rs"}, // an item of the parent
		{"crates/app/main.rs", "opts", "crates/app/opts/mod.rs"},
		{"crates/app/opts/mod.rs", "table", "crates/app/opts/table.rs"},
	}
	for _, tt := range tests {
		var want []string
		if tt.want != "" {
			want = []string{tt.want}
		}
		if got := Resolve("rust", tt.from, tt.spec, exists); !reflect.DeepEqual(got, want) {
			t.Errorf("Resolve(rust, %s, %s) = %q, want %q", tt.from, tt.spec, got, want)
		}
	}
}

func TestCalls(t *testing.T) {
	src := "const t = await refreshSession(id);\nif (isExpired(t)) {\n  verifyJwt (t, secret)\n}\n"
	var got []string
	for _, c := range Calls([]byte(src)) {
		got = append(got, c.Name+":"+string(rune('0'+c.Line)))
	}
	want := []string{"refreshSession:1", "isExpired:2", "verifyJwt:3"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("calls = %v, want %v", got, want)
	}
}

// CallNames lists each name once, sorted, and leaves out the names of the
// definitions it is given: the scan reads each definition's own line.
func TestCallNames(t *testing.T) {
	src := "func verify(t string) bool {\n  return isExpired(t) || verify(t[1:]) || isExpired(t)\n}\nfunc Check() { verify(\"\"); Println() }\n"
	for _, tt := range []struct {
		defs []Def
		want []string
	}{
		{nil, []string{"Check", "Println", "isExpired", "verify"}},
		{[]Def{{Name: "verify"}, {Name: "Check"}}, []string{"Println", "isExpired"}},
		{[]Def{{Name: "unrelated"}}, []string{"Check", "Println", "isExpired", "verify"}},
	} {
		if got := CallNames(src, tt.defs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CallNames with defs %v = %v, want %v", tt.defs, got, tt.want)
		}
	}
}

func TestLanguage(t *testing.T) {
	for p, want := range map[string]string{"a/b.go": "go", "x.PY": "python", "Makefile": "make", "c.tsx": "typescript", "noext": "",
		"kernels/reduce.cu": "cpp", "include/json.inl": "cpp", "src/a.ipp": "cpp", "_libs/algos.pyx": "python", "_libs/algos.pxd": "python",
		"build.gradle": "groovy", "src/Foo.groovy": "groovy", "src/main.zig": "zig", "lib/filters.jq": "jq",
		"CMakeLists.txt": "cmake", "cmake/FindLzpack.cmake": "cmake", "docs/notes.txt": "text"} {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
}

func FuzzExtract(f *testing.F) {
	f.Add("a.go", "func (s *S) M() {}\ntype T struct{}\n")
	f.Add("a.py", "class A:\n  def f(self): pass\n")
	f.Add("a.ts", "export class X {\n  m() {\n  }\n}\n")
	f.Add("a.c", "int main(int argc, char **argv) {\n")
	f.Add("a.md", "# x\n")
	f.Add("a.rs", "impl<T> P<T> {\n    fn new() -> Self { P }\n}\n")
	f.Add("a.rb", "module M\n  class C < B\n    def m; end\n  end\nend\n")
	f.Add("a.java", "class A { void m() { new B(); } }")
	f.Add("a.cpp", "namespace n { class A { int f(); }; int A::f() { return g(); } }")
	f.Add("a.php", "<?php\nclass A { function f() { return new B(); } }")
	f.Add("a.sh", "f() { echo x; }\nsource ./a.sh\n")
	f.Add("a.tsx", "export const A = () => <div onClick={f()}>x</div>;\n")
	f.Fuzz(func(t *testing.T, p, src string) {
		o := Extract(p, []byte(src))
		n := defsInRange(t, o, src)
		for _, c := range o.Calls {
			if c.Line < 1 || c.Line > n || c.Name == "" {
				t.Fatalf("call %+v out of range 1..%d", c, n)
			}
		}
		for _, r := range o.Refs {
			if r.Line < 1 || r.Line > n || r.Name == "" {
				t.Fatalf("ref %+v out of range 1..%d", r, n)
			}
		}
		if strings.Contains(o.Err, "panic") {
			t.Fatalf("extraction panicked: %s", o.Err)
		}
		Calls([]byte(src))
	})
}

// FuzzExtractFallback holds the fast outline, the index's own, to its
// ranges on any input: the hand parsers of C, C++ and Java definitions
// (return types above names, macro-wrapped types, braces in strings and
// comments) read past line ends only by mistake.
func FuzzExtractFallback(f *testing.F) {
	f.Add("a.c", "static int\nview_pane_read(struct view_pane *vp, /* { */ int n)\n{\n\treturn \"}\";\n}\n")
	f.Add("a.c", "JNODE_PUBLIC(char *) jnode_Print(const jnode *item)\n{\n    return print(item, true);\n}\n")
	f.Add("a.cpp", "namespace n {\n    inline int f(int a) {\n        return a; // }\n    }\n}\nA::A(int x)\n    : m(x)\n{\n}\n")
	f.Add("a.h", "int declared(void);\n#define M(x) { x }\n")
	f.Add("a.java", "class A {\n  A(int x) {}\n  public @Nullable String m() { return x ? get() : null; }\n  void n() {}\n}\n")
	f.Add("a.c", "int\n")
	f.Add("a.cpp", "~\n")
	f.Add("a.js", "export default (o, c) => {\n  c.prototype.week = function (w = null) {\n    const f = (n) => {\n      return n\n    }\n  }\n}\nmodule.exports = class A {\n  $g(a) { // get\n    show(B, {\n  }\n}\n")
	f.Add("a.ts", "const o = {\n  html: async () => {\n  },\n  set ({ k }) {\n  },\n}\ninterface I {\n  toJSON: () => object;\n}\n")
	f.Add("a.swift", "extension A.B where T == C {\n    @objc public init?(x: Int) {}\n    class func f() {}\n    class var v: Int { 1 }\n}\n")
	f.Add("a.kt", "actual class A {\n  @JvmStatic fun <T> List<T>?.b(): T = x\n  fun interface C {\n  enum class\n  fun `a b`() {}\n}\n")
	f.Add("a.cs", "class A\n{\n    public A(\n    T M<T>(\n    SELECT TOP(\n    await X(\n}\n")
	f.Add("a.scala", "object A {\n  private[a] def b[C]: Int = 1\n  def\n}\n")
	f.Add("a.rb", "class A\n  def self.[]=(x)\n  private def <=>(o)\n  def @io.x\nend\n")
	f.Add("a.lua", "function a.b:c(\nlocal x = function(\n--[[ function d( ]]\n")
	f.Add("a.groovy", "class A {\n  def f(x) {\n  }\n}\n")
	f.Add("a.jq", "def f($x): .;\n")
	f.Add("CMakeLists.txt", "function(f a)\nendfunction()\n")
	f.Add("a.jl", "f(x) = 2x\ng(x) == 1\nfunction h!\n")
	f.Add("a.dart", "class A {\n  A.named(this.x);\n  A.\n  A(\n  void Function(int) f;\n  return g(\n  int get x => 1;\n}\n")
	f.Add("a.java", "class A {\n  @A(\"(\\\"\") @B({1, 2}) public void f() {\n  @C(\n  @\n  @interface D {}\n}\n")
	f.Add("a.cs", "class A {\n  [X(\"]\")][Y] (int, T) F() {\n  (a, b) = (b, a);\n  [\n  (int a,\n}\n")
	f.Add("a.hpp", "namespace a {\nnamespace b {\n}\nint f() {}\n")
	f.Fuzz(func(t *testing.T, p, src string) {
		defsInRange(t, ExtractFallback(p, []byte(src)), src)
	})
}

// defsInRange fails t unless every definition of o lies within src's
// lines, its end at or after its start; it returns the count of lines.
func defsInRange(t *testing.T, o Outline, src string) int {
	t.Helper()
	n := strings.Count(src, "\n") + 1
	for _, d := range o.Defs {
		if d.Line < 1 || d.Line > n || d.EndLine < d.Line || d.EndLine > n {
			t.Fatalf("def %+v out of range 1..%d", d, n)
		}
	}
	return n
}

func TestComments(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []string
	}{
		{"go", "// Package a.\npackage a\n\nvar u = \"http://x\" // trailing\n/* block\n comment */\n", []string{"// Package a.", "// trailing", "/* block\n comment */"}},
		{"typescript", "const s = 'it''s'; // note\nconst t = `multi\n// not a comment`;\n", []string{"// note"}},
		{"python", "\"\"\"Module doc.\"\"\"\nx = '#not'  # real\ndef f():\n    '''Doc of f.'''\n", []string{"Module doc.", "# real", "Doc of f."}},
		{"sql", "SELECT 1; -- one\n", []string{"-- one"}},
		{"markdown", "# title\n", nil},
		{"ini", "; one\n[s]\n  # two\nkey = v ; three\npath = a;b\n", []string{"; one", "# two", "; three"}},
		{"properties", "! one\nurl=http://x#y # two\n", []string{"! one", "# two"}},
	}
	for _, tt := range tests {
		got := comments(tt.lang, []byte(tt.src))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Comments = %q, want %q", tt.lang, got, tt.want)
		}
	}
}

func TestConfigKeys(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []string // name@line
	}{
		{"yaml", "server:\n  # note: here\n  max_body: 1\n  - name: x\n  \"quoted-key\": 2\nurl: http://x\nlist:\n  - plain\n", []string{"server@1", "max_body@3", "name@4", "quoted-key@5", "url@6", "list@7"}},
		{"toml", "[tool.pytest]\naddopts = \"-q\"\n[[bin]]\n# x = 1\nname=\"a\"\n", []string{"tool.pytest@1", "addopts@2", "bin@3", "name@5"}},
		{"ini", "[pytest]\n; maxfail = 1\nmaxfail = 3\n  continued line\n", []string{"pytest@1", "maxfail@3"}},
		{"properties", "! c\nserver.port: 8080\nhttp.idle.timeout=60\n", []string{"server.port@2", "http.idle.timeout@3"}},
		{"python", "x = 1\n", nil},
		{"json", "{\"a\": 1}\n", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range ConfigKeys(tt.lang, []byte(tt.src)) {
			if d.Kind != "key" || d.EndLine != d.Line {
				t.Errorf("%s: key %+v: want kind key on one line", tt.lang, d)
			}
			got = append(got, fmt.Sprintf("%s@%d", d.Name, d.Line))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ConfigKeys = %q, want %q", tt.lang, got, tt.want)
		}
	}
}

func FuzzComments(f *testing.F) {
	f.Add("go", "/* a */ // b \"c\" `d`")
	f.Add("python", "'''x''' # y \"z")
	f.Add("yaml", "a:\n  # b\n  c: 1 # d\n")
	f.Fuzz(func(t *testing.T, lang, src string) {
		comments(lang, []byte(src))
		for _, d := range ConfigKeys(lang, []byte(src)) {
			if d.Name == "" || d.Line < 1 {
				t.Fatalf("ConfigKeys gave %+v", d)
			}
		}
	})
}

// comments are the texts of CommentSpans.
func comments(lang string, src []byte) []string {
	var out []string
	for _, sp := range CommentSpans(lang, src) {
		out = append(out, string(src[sp[0]:sp[1]]))
	}
	return out
}

// Every line pattern compiles: they are compiled when first used, so a bad
// one would otherwise show only in the language that needs it.
func TestLinePatternsCompile(t *testing.T) {
	for lang, rules := range familyRules {
		for i, ru := range rules {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s rule %d: %v", lang, i, r)
					}
				}()
				if re := ru.re(); ru.name > re.NumSubexp() {
					t.Errorf("%s rule %d: name is group %d of %d", lang, i, ru.name, re.NumSubexp())
				}
			}()
		}
	}
	for _, re := range []func() *regexp.Regexp{jsReexport, jsImport, pyFrom, pyImport, goImportOne, goImportIn, cInclude, javaImport, rustUse, rubyReq, yamlKey, assignKey, tableKey} {
		if re().NumSubexp() < 1 {
			t.Errorf("%v: no group", re())
		}
	}
}

// TestFallbackPythonEndLines checks the line patterns' end lines in
// Python, where a definition ends before the first statement at its
// indentation or less: not before a string's lines, a call's arguments or
// a comment at the margin, and before the decorators and comments that
// lead to what follows.
func TestFallbackPythonEndLines(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // name:line-end, in order
	}{
		{"module code after a class", `class A:
    def f(self):
        return 1


_doc = """
text at the margin
"""
x = f(1,
2)
`, []string{"A:1-3", "f:2-3"}},
		{"a docstring at the margin", `def f():
    """Doc.
Example at the margin.
"""
    return 1

def g():
    pass
`, []string{"f:1-5", "g:7-8"}},
		{"decorators and comments lead to the next", `class A:
    def f(self):
        pass

# The next section.
@decorator
def g():
    pass
`, []string{"A:1-3", "f:2-3", "g:7-8"}},
		{"a comment at the margin in a body", `def f():
    x = 1
# commented = out
    return x
`, []string{"f:1-4"}},
		{"a definition inside a string defines nothing", `def f():
    run("""
def inner():
    pass
""")
    return 2
`, []string{"f:1-6"}},
		{"a string continued by a backslash", `def f():
    raise ValueError("one, \
two")
    return 3

def g():
    pass
`, []string{"f:1-4", "g:6-7"}},
		{"brackets left open end at the next definition", `def f(:
    x = [
    return 1

def g():
    pass
`, []string{"f:1-3", "g:5-6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range ExtractFallback("m.py", []byte(tc.src)).Defs {
				got = append(got, fmt.Sprintf("%s:%d-%d", d.Name, d.Line, d.EndLine))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("defs %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFallbackCDefinitions checks the line patterns' C and C++ functions
// in the styles the one-line pattern misses: the return type on the line
// above the name (BSD, GNU), a definition indented in a namespace or a
// class; and that a prototype, an initializer list, a constructor call
// or a deleted function defines nothing. A function ends at its closing
// brace, not at the next definition.
func TestFallbackCDefinitions(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []string // name:line-end, in order
	}{
		{"return type above the name", "server.c", `/* Set the key table. */
void
server_set_key_table(struct client *c, const char *name)
{
	if (name == NULL)
		name = "root";
}

static int server_count; /* between the two */

static const char *
server_name(struct client *c,
    int flags)
{
	return (c->name);
}
`, []string{"server_set_key_table:2-7", "server_name:11-16"}},
		{"GNU style, a space before the parameters", "util.c", `int
xstrlen (const char *s)
{
  return strlen (s);
}
`, []string{"xstrlen:1-5"}},
		{"prototypes and calls at the margin define nothing", "proto.h", `void
log_debug(const char *fmt,
    ...);
int	 server_start(struct srvproc *, int);
RB_GENERATE(windows, window, entry, window_cmp);
`, nil},
		{"indented in a namespace and a class", "near.cpp", `namespace Verify {
    Near::Near ( double value )
    :   m_epsilon( 100 ),
        m_value( value )
    {}

    Near Near::custom() {
        return Near( 0 );
    }

    bool Near::equalityComparisonImpl(const double other) const {
        std::string text(other,
            m_value);
        if (text.empty()) {
            return false;
        }
        return true;
    }
}
`, []string{"Verify:1-19", "Near::Near:2-5", "Near::custom:7-9", "Near::equalityComparisonImpl:11-18"}},
		{"operators, a template's member, a class's own constructor; calls are none", "ops.cpp", `namespace Verify {
    bool operator==( Tag const& lhs, Tag const& rhs ) {
        return lhs.original == rhs.original;
    }
    Near Near::operator-() const {
        return Near(-m_value);
    }
    std::string TextMaker<std::string>::convert(const std::string& str) {
        return str;
    }
}
class Fixture {
public:
    Fixture()
        : n_(0) {
    }
    ~Fixture() {
    }
    Fixture(const Fixture&) = delete;
    void run() {
        Verify::Fixture::reset(n_);
        bool same = a.operator==(b);
        Other(n_);
    }
};
`, []string{"Verify:1-11", "operator==:2-4", "Near::operator-:5-7", "TextMaker<std::string>::convert:8-10", "Fixture:12-25", "Fixture:14-16", "~Fixture:17-18", "run:20-24"}},
		{"a class's methods; a deleted one and a declaration are none", "pool.hpp", `class Pool {
public:
    Pool(const Pool&) = delete;
    int size() const { return size_; }
    void resize(int n,
                bool keep);
    static Pool* make(int n) {
        return new Pool(n);
    }
};
`, []string{"Pool:1-10", "size:4-4", "make:7-9"}},
		{"a type after a template's parameters, an export macro, final or a base list; an alias; a declaration is none", "render.h", `namespace txt {
class TXT_API render_error : public std::runtime_error {
 public:
  explicit render_error(const char* message) : std::runtime_error(message) {}
};
template <typename T> class buffer {
};
template <typename T, typename Char = char>
struct renderer {
};
struct TXT_DEPRECATED cast_to_int : bool_constant<true> {};
template <typename T>
using has_renderer = std::is_constructible<T>;
enum class color : uint32_t {
  red,
};
class Forward;
struct stat st;
}
`, []string{"txt:1-19", "render_error:2-5", "render_error:4-4", "buffer:6-7", "renderer:9-10", "cast_to_int:11-11",
			"has_renderer:13-13", "color:14-16"}},
		{"constructors and destructors outside the class", "section.cpp", `BlockInfo::BlockInfo(SourceSpot const& info,
                         std::string const& name)
:   name( name ),
    lineInfo( info )
{}

LeakCheck::~LeakCheck() {
    Verify::cleanUp();
}

Foo::Foo(int x);
`, []string{"BlockInfo::BlockInfo:1-5", "LeakCheck::~LeakCheck:7-9"}},
		{"a return type a macro wraps", "jnode.c", `JNODE_PUBLIC(char*) jnode_SetValuestring(jnode *object, const char *valuestring)
{
    return NULL;
}

JNODE_PUBLIC(jnode *) jnode_Parse(const char *value);
`, []string{"jnode_SetValuestring:1-4"}},
		{"strings and comments hold no braces", "esc.c", `static void
escape(char *out)
{
	const char *open = "{";
	char c = '}';
	/* } */
	// }
	out[0] = c;
}

int
next(void)
{
	return 1;
}
`, []string{"escape:1-9", "next:11-15"}},
		{"at the margin: a template's member, a one-line body (a review's cases)", "c.cpp", `template <typename T>
T Container<T>::get() const {
    return v_;
}
std::string TextMaker<std::string>::convert(const std::string& s) {
    return s;
}
static inline int max2(int a, int b) { return a > b ? a : b; }
struct ops {
    int x;
};
int open_impl(void) { return 0; }
`, []string{"Container<T>::get:2-4", "TextMaker<std::string>::convert:5-7", "max2:8-8", "ops:9-11", "open_impl:12-12"}},
		{"a typedef's body over lines: its tag and the names after its brace, not a pointer's", "ring.h", `typedef struct ring_s {
    unsigned head; /* } not here */
    struct {
        int depth;
    } inner;
} ring_t, *ring_ptr;

typedef enum
{
    ring_ok,
    ring_full
} ring_status;

typedef union { unsigned u; } __attribute__((packed)) unaligned_u;
typedef struct ring_s ring_alias;
typedef struct {
    int a;
    } ring_indented_close;
typedef struct
{
    int b;
}
ring_name_below;
`, []string{"ring_s:1-6", "ring_t:1-6", "ring_status:8-12", "unaligned_u:14-14", "ring_alias:15-15", "ring_indented_close:16-18",
			"ring_name_below:19-23"}},
		{"typedefs, a review's cases: comments, attributes, capitals, a macro's lines", "review.h", `extern "C" {
typedef int handle_t;
}
typedef enum {
A,
B
} margin_enum;
typedef struct cmt_s {
    int a;
/* margin comment */
    int b;
} cmt_t;
typedef struct {
    int a;
} bar_t; /* see {} */
typedef struct foo_s /* doc */ {
    int a;
} __attribute__((aligned(16))) foo_t;
typedef struct
/* comment */
{
    int a;
} PACKED packed_t, *packed_p;
typedef enum MY_ENUM {
  C
} my_enum_t;
#define VEC(T, name) \\
typedef struct { \\
    T *data; \\
} name; \\

`, []string{"handle_t:2-2", "margin_enum:4-7", "cmt_s:8-12", "cmt_t:8-12", "bar_t:13-15", "foo_s:16-18", "foo_t:16-18",
			"packed_t:19-23", "MY_ENUM:24-26", "my_enum_t:24-26", "VEC:27-30"}},
		{"indented, a review's cases: an inline namespace, a trait whole on its line, a statement's type and name", "traits.hpp", `namespace types {
    inline namespace v2 {
        struct Y {};
    }
    template <typename T> struct remove_ref { using type = T; };
    template <typename T> using decay_t = T;
    class Reporter
        : public Base {
    public: // Base
        Reporter();
    // a comment at the class's indentation
    public:
        int n;
    };
}
void paint(void) {
    enum color
        c = RED;
}
`, []string{"types:1-15", "v2:2-4", "Y:3-3", "remove_ref:5-5", "Reporter:7-14", "paint:16-19"}},
		{"types indented in a namespace and a class; a member type's alias and a local variable of a struct type are none", "session.hpp", `namespace app {
    namespace Detail {
        struct Tag {};
    }
    class Session : public NonCopyable {
    public:
        enum class Mode { Run, List };
        template <typename T>
        struct Holder {
            T value;
        };
        using Clock = std::chrono::steady_clock;
        void run() {
            struct stat st;
            class Forward;
        }
    };
}
`, []string{"app:1-18", "Detail:2-4", "Tag:3-3", "Session:5-17", "Mode:7-7", "Holder:9-11", "run:13-16"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range ExtractFallback(tc.path, []byte(tc.src)).Defs {
				got = append(got, fmt.Sprintf("%s:%d-%d", d.Name, d.Line, d.EndLine))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("defs %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFallbackJavaMethods checks the line patterns' Java methods that have
// no modifier (package-private, as some libraries write them), constructors, and an
// annotation between the modifiers and the type; statements and a call's
// continued arguments inside a method define nothing.
func TestFallbackJavaMethods(t *testing.T) {
	src := `package org.acme.parser;

public class TokenData {
    private String value;

    TokenData(String value) {
        this.value = value;
    }

    void append(char c) {
        String s = build(c);
        Element el = popUntilClosed(s);
        if (el != null) {
            check(value, s,
                other(c));
        }
        return ok ? get(s) : null;
    }

    @Nullable
    Element popUntilClosed(String elName) {
        return null;
    }

    public @Nullable Tag get(String tagName, String namespace) {
        synchronized (this) {
            return tags.get(tagName);
        }
    }

    static <T extends Comparable<T>> Map<String, List<T>> group(List<T> in) {
        return null;
    }

    public record Span(int from, int to) {}
    enum Mode { RAW, ESCAPED }
    void reset() {
    }
}
`
	want := []string{"TokenData:3", "TokenData.TokenData:6", "TokenData.append:10", "TokenData.popUntilClosed:21",
		"TokenData.get:25", "TokenData.group:31", "TokenData.Span:35", "TokenData.Mode:36", "TokenData.reset:37"}
	got := containedDefs(ExtractFallback("TokenData.java", []byte(src)).Defs, func(k string) bool { return k != "variable" && k != "field" })
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// TestFallbackJSDefinitions: the functions JavaScript and TypeScript set
// on objects, properties and local names, and the methods of object
// literals, are definitions; calls that take a callback or an object, and
// the members of an interface, are not.
func TestFallbackJSDefinitions(t *testing.T) {
	src := `import { D } from './constant'

export default (o, c, d) => {
  const proto = c.prototype
  proto.week = function (week = null) {
    const fix = (n) => {
      return n
    }
    return fix(week)
  }
  d.utc = async (date) => {
    return date
  }
}

exports.show = function(req, res, next){
  it('does', function () {
    expect(dt.duration({
      a: 1,
    }))
  })
}

module.exports = class Application extends Emitter {
  compose (fns) {
    showModal(ConfirmModal, {
      title: 'x',
    })
  }

  $locale() { // the locale object
    return this.$L
  }
}

const res = {
  html: function () {
    return 1
  },
  getAdapter: (adapters) => {
    return adapters
  },
  set ({ key, value }) {
    return key
  },
  functions: 'only-multiline',
}

interface Hooks {
  toJSON: () => object;
}

class Ky {
  async #retry(error: unknown): Promise<void> {
    return
  }
  get size(): number { return this.n; }
  constructor(input: Input) { super(input); }
  static *keys(): Iterable<string> {}
  run() {
    if (this.n) { this.stop(); }
    while (this.n) { this.n--; }
  }
}
`
	want := []string{"week:5", "fix:6", "utc:11", "show:16", "Application:24", "Application.compose:25",
		"Application.$locale:31", "html:37", "getAdapter:40", "set:43", "Ky:53", "Ky.retry:54",
		"Ky.size:57", "Ky.constructor:58", "Ky.keys:59", "Ky.run:60"}
	got := containedDefs(ExtractFallback("plugin.ts", []byte(src)).Defs, func(k string) bool { return k == "function" || k == "method" || k == "class" })
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// Swift's functions, initializers, types, protocols and extensions, whose
// methods have the extended type as their container; class func is a
// function's modifier, class var no class.
func TestFallbackSwiftDefinitions(t *testing.T) {
	src := `import Foundation

public final class Throttle: NSObject {
    private var last: Date?
    class var shared: Throttle { Throttle() }
    public init(interval: TimeInterval) {
    }
    @discardableResult
    public func run(_ block: @escaping () -> Void) -> Self {
    }
    class func make() -> Throttle { Throttle() }
    deinit {
    }
}

extension Throttle {
    func cancel() {}
    subscript(index: Int) -> Int { 0 }
}

protocol Limiter: Sendable {
    func acquire() -> Bool
}

struct Point<T> {
    mutating func move() {}
}

enum Mode { case a, b }
typealias Handler = () -> Void
func topLevel() -> Int { 1 }
`
	want := []string{"Throttle:3", "Throttle.init:6", "Throttle.run:9", "Throttle.make:11", "Throttle.deinit:12",
		"Throttle:16", "Throttle.cancel:17", "Throttle.subscript:18", "Limiter:21", "Limiter.acquire:22",
		"Point:25", "Point.move:26", "Mode:29", "Handler:30", "topLevel:31"}
	got := containedDefs(ExtractFallback("Throttle.swift", []byte(src)).Defs, func(string) bool { return true })
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// Dart's declarations have their type before their name; a call has none,
// nor has a statement a type (return foo(), and a function type's
// Function is no name.
func TestFallbackDartDefinitions(t *testing.T) {
	src := `typedef Handler = void Function(int code);

abstract class Counter extends StatefulWidget {
  const Counter({super.key});
  Counter.zero() : this();
  factory Counter.of(BuildContext context) => context.read();

  @override
  State<Counter> createState() => _CounterState();

  int get count => _count;
  set count(int v) {
    setState(() {
      _count = v;
    });
    return compute(v);
  }

  Future<Map<String, dynamic>?> load(String id) async {
    final void Function(int) cb = print;
    await fetch(id);
  }
}

mixin Logging on Object {
  void log(String m);
}

extension Pretty on Counter {
  String pretty() => '$count';
}

enum Mode { a, b }

Future<void> main() async {
  runApp(Counter());
}
`
	want := []string{"Handler:1", "Counter:3", "Counter.Counter:4", "Counter.Counter.zero:5", "Counter.Counter.of:6",
		"Counter.createState:9", "Counter.count:11", "Counter.count:12", "Counter.load:19", "Logging:25", "Logging.log:26",
		"Pretty:29", "Pretty.pretty:30", "Mode:33", "main:35"}
	got := containedDefs(ExtractFallback("counter.dart", []byte(src)).Defs, func(string) bool { return true })
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// Kotlin's functions, extension functions among them, with the modifiers
// Java has not (expect, actual, suspend, operator); its classes, objects,
// enum classes, fun interfaces and typealiases.
func TestFallbackKotlinDefinitions(t *testing.T) {
	src := `package sinkio

actual class Buffer : BufferedSource, BufferedSink {
  internal actual var head: Segment? = null

  actual override fun emit(): Buffer = this

  actual fun copyTo(
    out: Buffer,
  ): Buffer = sharedCopyTo(out)

  @JvmStatic internal suspend fun <T> load(x: T): T {
    return x
  }

  companion object Factory {
    operator fun invoke(): Buffer = Buffer()
  }
}

fun ByteArray.decodeUtf8(): String {
  return sharedToUtf8String()
}

fun <T> List<T>?.second(): T = this!![1]

enum class Mode { A, B }

fun interface Callback {
  fun call(x: Int)
}

typealias Handler = (Int) -> Unit
`
	want := []string{"Buffer:3", "Buffer.emit:6", "Buffer.copyTo:8", "Buffer.load:12", "Buffer.Factory:16",
		"Factory.invoke:17", "decodeUtf8:21", "second:25", "Mode:27", "Callback:29", "Callback.call:30", "Handler:33"}
	got := containedDefs(ExtractFallback("Buffer.kt", []byte(src)).Defs, func(string) bool { return true })
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// C#'s constructors (the class's own name), generic methods, and the
// methods with no modifier of an interface's explicit implementation; a
// statement (await Save(), lock (gate)) or a line of SQL in a string is
// none.
func TestFallbackCSharpDefinitions(t *testing.T) {
	src := `namespace App
{
    public class OrderService : IOrderService
    {
        public OrderService(IStore store)
        {
            await Save(store);
            lock (gate)
            {
            }
            var sql = """
                SELECT TOP(2) [o].[Id]
                LEFT JOIN (
                """;
        }

        public static IQueryable<T> Tracked<T>(this IQueryable<T> query)
        {
            return query;
        }

        internal virtual Task<Order> GetAsync(int id)
        {
            return null;
        }
    }
}
`
	want := []string{"OrderService:3", "OrderService.OrderService:5", "OrderService.Tracked:17", "OrderService.GetAsync:22"}
	got := containedDefs(ExtractFallback("OrderService.cs", []byte(src)).Defs, func(string) bool { return true })
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// Scala's defs with no parameters or with type parameters, after a
// qualified private; Ruby's operator methods, methods of an object
// (def body.each) and private def.
func TestFallbackScalaAndRubyDefinitions(t *testing.T) {
	scala := `package scopt

abstract class OParser[A, C] {
  def programName: String = names.head
  private[scopt] def renderUsage[C](mode: Mode): String = {
    ""
  }
  @tailrec final def loop(n: Int): Int = n
}

case class OptionDef(name: String)
object OParser {
  implicit def builder[C]: Builder[C] = new Builder
}
trait Read[A]
`
	want := []string{"OParser:3", "OParser.programName:4", "OParser.renderUsage:5", "OParser.loop:8",
		"OptionDef:11", "OParser:12", "OParser.builder:13", "Read:15"}
	if got := containedDefs(ExtractFallback("OParser.scala", []byte(scala)).Defs, func(string) bool { return true }); !slices.Equal(got, want) {
		t.Errorf("Scala defs %q, want %q", got, want)
	}
	ruby := `module Rack
  class Headers < Hash
    def self.[](*items)
    end
    def []=(key, value)
    end
    def <<(pair)
    end
    private def assert_required(key)
    end
    def body.each
    end
  end
end
`
	want = []string{"Rack:1", "Rack.Headers:2", "Headers.[]:3", "Headers.[]=:5", "Headers.<<:7",
		"Headers.assert_required:9", "Headers.each:11"}
	if got := containedDefs(ExtractFallback("headers.rb", []byte(ruby)).Defs, func(string) bool { return true }); !slices.Equal(got, want) {
		t.Errorf("Ruby defs %q, want %q", got, want)
	}
}

// Lua, Elixir, Perl, R and Julia, which had no patterns: their functions,
// modules and types; a comment defines nothing.
func TestFallbackScriptingDefinitions(t *testing.T) {
	tests := []struct {
		path, src string
		want      []string
	}{
		{"throttle.lua", `local M = {}
-- function commented(x)
function M.new(rate)
end
function M:take(n)
end
local function refill(b)
end
M.reset = function(b)
end
return M
`, []string{"new:3", "take:5", "refill:7", "reset:9"}},
		{"throttle.ex", `defmodule App.Throttle do
  # def commented(x)
  def allow?(key), do: true
  defp refill(bucket) do
  end
  defmacro limit(n) do
  end
end
`, []string{"App.Throttle:1", "App.Throttle.allow?:3", "App.Throttle.refill:4", "App.Throttle.limit:6"}},
		{"Throttle.pm", `package App::Throttle;
# sub commented
sub new {
}
sub take { }
`, []string{"App::Throttle:1", "new:3", "take:5"}},
		{"throttle.R", `# throttle <- function(x)
throttle <- function(rate, burst = 1) {
}
refill = function(b) b
`, []string{"throttle:2", "refill:4"}},
		{"Throttle.jl", `module Throttles
# function commented()
mutable struct Bucket
    n::Int
end
function take!(b::Bucket, n)
end
rate(b::Bucket) = b.n
macro limit(ex)
end
end
`, []string{"Throttles:1", "Bucket:3", "take!:6", "rate:8", "limit:9"}},
	}
	for _, tt := range tests {
		got := containedDefs(ExtractFallback(tt.path, []byte(tt.src)).Defs, func(string) bool { return true })
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: defs %q, want %q", tt.path, got, tt.want)
		}
	}
}

// Groovy, Zig, jq and CMake, which were not code at all: their
// functions and types; a comment defines nothing.
func TestFallbackMoreDefinitions(t *testing.T) {
	tests := []struct {
		path, src string
		want      []string
	}{
		{"src/Throttle.groovy", `class Throttle {
    // def commented(x)
    def take(int n) {
    }
    private static boolean refill(Bucket b) {
    }
}
def helper(x) { x }
`, []string{"Throttle:1", "Throttle.take:3", "Throttle.refill:5", "helper:8"}},
		{"src/throttle.zig", `// fn commented() void {}
pub const Bucket = struct {
    n: u32,
    pub fn take(self: *Bucket, n: u32) bool {
    }
};
fn refill(b: *Bucket) void {}
`, []string{"Bucket:2", "Bucket.take:4", "refill:7"}},
		{"lib/filters.jq", `# def commented: .;
def ltrimprefix($x): if startswith($x) then .[($x|length):] end;
def splitall($re; flags): split($re; flags) | .[];
def toiso: strftime("%Y-%m-%dT%H:%M:%SZ");
`, []string{"ltrimprefix:2", "splitall:3", "toiso:4"}},
		{"cmake/Throttle.cmake", `# function(commented)
function(add_throttle name)
endfunction()
MACRO(set_rate target)
ENDMACRO()
`, []string{"add_throttle:2", "set_rate:4"}},
		{"src/main/java/org/example/Tracked.java", `package org.example;

@Retention(RetentionPolicy.RUNTIME)
public @interface Tracked {
    String value() default "";
}
`, []string{"Tracked:4", "Tracked.value:5"}},
		{"src/macros.rs", `// macro_rules! commented {
#[macro_export]
macro_rules! throttle {
    ($n:expr) => { take($n) };
}
macro_rules!refill{() => {}}
pub union Bits { i: u32, f: f32 }
let union = 3;
`, []string{"throttle:3", "refill:6", "Bits:7"}},
	}
	for _, tt := range tests {
		got := containedDefs(ExtractFallback(tt.path, []byte(tt.src)).Defs, func(string) bool { return true })
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: defs %q, want %q", tt.path, got, tt.want)
		}
	}
}

// containedDefs writes each definition whose kind keep takes as
// Container.Name:Line.
func containedDefs(defs []Def, keep func(kind string) bool) []string {
	var out []string
	for _, d := range defs {
		if !keep(d.Kind) {
			continue
		}
		name := d.Name
		if d.Container != "" {
			name = d.Container + "." + name
		}
		out = append(out, fmt.Sprintf("%s:%d", name, d.Line))
	}
	return out
}

// In the languages whose blocks close with "end", a definition ends at
// its own "end", not at its module's or class's: the last method of a
// module, a one-line def, a nested block's "end" inside a body.
func TestFallbackEndClosedSpans(t *testing.T) {
	tests := []struct {
		path, src string
		want      []string // name:line-end
	}{
		{"two.ex", "defmodule Two do\n  def a do\n    1\n  end\n\n  def b do\n    2\n  end\nend\n",
			[]string{"Two:1-9", "a:2-4", "b:6-8"}},
		{"one.ex", "defmodule M do\n  def a, do: 1\nend\n", []string{"M:1-3", "a:2-2"}},
		{"m.lua", "local M = {}\n\nfunction M.a()\n  return 1\nend\n\nfunction M.b()\n  if x then\n    return 2\n  end\nend\n\nreturn M\n",
			[]string{"a:3-5", "b:7-11"}},
		{"two.rb", "class Two\n  def a\n    1\n  end\n\n  def b\n    [1].each do |x|\n      x\n    end\n  end\nend\n",
			[]string{"Two:1-11", "a:2-4", "b:6-10"}},
		{"t.jl", "function f(x)\n    if x\n        1\n    end\nend\n\nconst g = 1\n", []string{"f:1-5"}},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range ExtractFallback(tt.path, []byte(tt.src)).Defs {
			got = append(got, fmt.Sprintf("%s:%d-%d", d.Name, d.Line, d.EndLine))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: spans %q, want %q", tt.path, got, tt.want)
		}
	}
}

// Go's line patterns name a const or var group's entries, and nothing of
// a function body's assignments, indented alike.
func TestFallbackGoGroups(t *testing.T) {
	src := "package ratelimit\n\nimport \"strings\"\n\nconst (\n\tMax     = 10\n\tMin int = 1\n)\n\nvar (\n\tdefaultKey = \"k\"\n)\n\nvar x = 1\n\nfunc helper1(key string) string {\n\tkey = strings.TrimSpace(key)\n\terr = nil\n\treturn key\n}\n\nfunc helper2() {}\n"
	var got []string
	for _, d := range ExtractFallback("g.go", []byte(src)).Defs {
		got = append(got, fmt.Sprintf("%s:%d", d.Name, d.Line))
	}
	want := []string{"Max:6", "Min:7", "defaultKey:11", "x:14", "helper1:16", "helper2:22"}
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// TestNestedEnd: the line patterns end a definition nested in another at
// its own closing line, not at its parent's end (the next definition at
// its indentation or less may lie past the parent's lines); a signature
// going on at its indentation, and a string over lines, are its.
func TestNestedEnd(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            []string
	}{
		{"a JavaScript function's own function", "a.js",
			"function outer(config) {\n  const a = 1;\n  function onTimeout() {\n    reject();\n  }\n  const b = 2;\n  return b;\n}\n\nfunction after() {\n  return 1;\n}\n",
			[]string{"outer function  1-8", "onTimeout function  3-5", "after function  10-12"}},
		{"a Swift class's method", "App.swift",
			"class Session {\n    func refresh() {\n        renew()\n    }\n\n    var id = 1\n}\n",
			[]string{"Session class  1-7", "refresh method Session 2-4"}},
		{"a C# method, its brace on a line of its own", "A.cs",
			"class A\n{\n    void F()\n    {\n        G();\n    }\n\n    int x;\n}\n",
			[]string{"A class  1-9", "F method A 3-6"}},
		{"a Rust method with a where clause", "a.rs",
			"impl<T> S<T> {\n    fn f(&self)\n    where\n        T: Clone,\n    {\n        g();\n    }\n\n    const N: u8 = 1;\n}\n",
			[]string{"f method S 2-7", "N constant S 9-9"}},
		{"a template literal over lines in a nested function", "a.js",
			"function outer() {\n  function usage() {\n    console.log(`Usage:\nhone retrieve\n`);\n  }\n  usage();\n}\n",
			[]string{"outer function  1-8", "usage function  2-6"}},
		{"a nested function's parameters over lines", "a.ts",
			"export function outer() {\n  function run(\n    a: string,\n  ): void {\n    go(a);\n  }\n  run('x');\n}\n",
			[]string{"outer function  1-8", "run function  2-6"}},
		// The diff review's cases: each ended too early.
		{"Rust in rustfmt's style", "a.rs",
			"impl S {\n    pub fn new<P>(\n        path: P,\n    ) -> Result<Self>\n    where\n        P: AsRef<Path>,\n    {\n        g();\n        Ok(S)\n    }\n}\n",
			[]string{"new method S 2-10"}},
		{"a Rust string over lines", "a.rs",
			"impl S {\n    fn usage() {\n        println!(\"Usage:\nhone retrieve\n\");\n        g();\n    }\n}\n",
			[]string{"usage method S 2-7"}},
		{"a PHP heredoc", "a.php",
			"<?php\nclass A {\n    function help() {\n        $s = <<<EOT\nUsage:\n  hone\nEOT;\n        return $s;\n    }\n}\n",
			[]string{"A class  2-10", "help method A 3-9"}},
		{"C#'s #if at the margin", "A.cs",
			"class A\n{\n    void F()\n    {\n#if DEBUG\n        Log();\n#endif\n        G();\n    }\n}\n",
			[]string{"A class  1-10", "F method A 3-9"}},
		{"a Dart string in triple quotes at the margin", "a.dart",
			"class A {\n  void f() {\n    var s = '''\nline\n''';\n    g(s);\n  }\n}\n",
			[]string{"A class  1-8", "f method A 2-7"}},
		{"Kotlin parameters over lines and an expression body", "a.kt",
			"class A {\n    fun foo(\n        a: Int,\n    ): Int =\n        a + 1\n\n    val x = 1\n}\n",
			[]string{"A class  1-8", "foo method A 2-5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ExtractFallback(tt.path, []byte(tt.src))
			got := outlineDefs(o)
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("defs %q, want %q", got, tt.want)
			}
			if tt.want != nil {
				return
			}
			// Whatever the names, a nested definition ends where its
			// body closes: never past the line that closes it.
			lines := strings.Split(tt.src, "\n")
			for _, d := range o.Defs {
				if d.Container == "" && d.Kind != "method" && indentOf(lines[d.Line-1]) == 0 {
					continue
				}
				last := strings.TrimSpace(lines[d.EndLine-1])
				if !strings.HasPrefix(last, "}") && d.EndLine != d.Line {
					t.Errorf("%s %s ends at line %d, %q, not at its closing brace", d.Kind, d.Name, d.EndLine, last)
				}
			}
		})
	}
}

// A definition at the margin of a brace language ends at its own closing
// brace, or its own line, not at the next; and not over what leads to the
// next: its comment, annotations and attributes. A markdown section keeps
// its list.
func TestLeadingEnd(t *testing.T) {
	checkOutlines(t, []outlineCase{
		{"Go: a var, then a function's comment", "a.go",
			"package a\n\nvar v1 = 1\nvar v2 = 2\n\n// F does f.\n// It is F.\nfunc F() {\n\treturn\n}\n\nconst X = 3\n\n// a comment alone\n\ntype T struct {\n\tA int\n}\n",
			[]string{"v1 constant  3-3", "v2 constant  4-4", "F function  8-10", "X constant  12-12", "T type  16-18"}},
		{"Java: a class's javadoc and annotation", "A.java",
			"class A {\n}\n\n/**\n * B.\n */\n@Deprecated\nclass B {\n    void f() {\n    }\n}\n",
			[]string{"A class  1-2", "B class  8-11", "f method B 9-10"}},
		{"Rust: a function's attributes and doc", "a.rs",
			"const N: u8 = 1;\n\n/// Does f.\n#[inline]\nfn f() {\n}\n\n/* old */\nfn g() {\n}\n",
			[]string{"N constant  1-1", "f function  5-6", "g function  9-10"}},
		{"C: a macro before a function's block comment", "a.c",
			"#define N 1\n\n/*\n * Does f.\n */\nint f(void) {\n    return N;\n}\n",
			[]string{"N constant  1-1", "f function  6-8"}},
		{"Rust: a struct, then its impl", "a.rs",
			"pub struct Config {\n    a: u8,\n}\n\nimpl Config {\n    pub fn new() -> Self {\n        Config { a: 1 }\n    }\n}\n",
			[]string{"Config type  1-3", "new method Config 6-8"}},
		{"JavaScript: a function, then module code", "a.js",
			"function a() {\n  return `\n}\n`;\n}\nmodule.exports = a;\napp.listen(3000);\n",
			[]string{"a function  1-5"}},
		{"TypeScript: parameters destructured over lines", "a.ts",
			"export const family = ({\n  fontFamily,\n}: {\n  fontFamily: string;\n}) => {\n  return fontFamily;\n};\n\nexport const other = 1;\n",
			[]string{"family function  1-7", "other variable  9-9"}},
		{"Kotlin: a class's parameters over lines", "a.kt",
			"class A(\n    val x: Int,\n) {\n    fun f() = x\n}\nval y = 1\n",
			[]string{"A class  1-5", "f method A 4-4"}},
		{"a markdown section's list", "a.md",
			"# One\n\ntext\n* a\n* b\n\n# Two\n\ntext\n",
			[]string{"One section  1-5", "Two section  7-9"}},
	})
}

// Strings over lines are a string's lines, not code: they define nothing,
// close no class and end no definition. A declaration with no body is no
// container. (A review's cases.)
func TestOutlineStringsAndBodiless(t *testing.T) {
	checkOutlines(t, []outlineCase{
		{"a Kotlin raw string with a brace at the margin", "a.kt",
			"class A {\n    fun json(): String {\n        return \"\"\"\n{\n}\n\"\"\".trimIndent()\n    }\n\n    fun other() {\n        go()\n    }\n}\n",
			[]string{"A class  1-12", "json method A 2-7", "other method A 9-11"}},
		{"a Rust raw string", "a.rs",
			"impl S {\n    pub fn json() -> &'static str {\n        r#\"{\n  \"a\": 1\n}\"#\n    }\n    pub fn after(&self) {}\n}\n",
			[]string{"json method S 2-6", "after method S 7-7"}},
		{"a backtick in quotes", "a.js",
			"function outer() {\n  function isTick(c) {\n    return c === '`';\n  }\n  const a = 1;\n  return a;\n}\n",
			[]string{"outer function  1-7", "isTick function  2-4"}},
		{"Go source in a test's backticks", "a_test.go",
			"package p\n\nfunc TestX(t *testing.T) {\n\tsrc := `package p\n\nfunc Foo() {}\n`\n\trun(t, src)\n}\n",
			[]string{"TestX function  3-9"}},
		{"a TypeScript type alias", "a.ts",
			"export type Id = string;\n\nexport function outer() {\n  function inner() {\n    return 1;\n  }\n  return inner;\n}\n",
			[]string{"Id type  1-1", "outer function  3-8", "inner function  4-6"}},
		{"a Rust unit struct", "a.rs",
			"pub struct Marker;\n\nimpl Display for Other {\n    fn fmt(&self) -> u8 {\n        1\n    }\n}\n",
			[]string{"Marker type  1-1", "fmt method Other 4-6"}},
		{"a Kotlin data class with no body", "a.kt",
			"data class Point(val x: Int)\n\nfun outer() {\n    fun helper() = 1\n}\n",
			[]string{"Point class  1-1", "outer function  3-5", "helper function  4-4"}},
		{"a class declared over lines", "a.kt",
			"class A(\n    val x: Int,\n) {\n    fun f() = x\n}\n",
			[]string{"A class  1-5", "f method A 4-4"}},
		{"TypeScript methods: parameters over lines, a field that holds a function", "a.ts",
			"export class Service {\n  constructor(\n    private readonly a: string,\n  ) {\n    init(\n      a,\n    );\n  }\n  private onChange = (value: string): void => {\n    this.v = value;\n  };\n  async fetch(\n    url: string,\n  ): Promise<Response> {\n    return get(url);\n  }\n}\n",
			[]string{"Service class  1-17", "constructor method Service 2-8", "onChange method Service 9-11", "fetch method Service 12-16"}},
		{"a C declaration over lines; K&R", "a.h",
			"int foo(int a,\n        int b);\n\nstatic int counter;\nint sub(a, b)\n    int a; int b;\n{\n    return a - b;\n}\n",
			[]string{"sub function  5-9"}},
		{"a line that starts with where", "a.js",
			"function outer() {\n  function add(x) { return x; }\n  whereClause = add('a');\n}\n",
			[]string{"outer function  1-4", "add function  2-2"}},
	})
}

// A review compared the outlines before and after strings, margins and
// bodiless declarations were read (thousands of files of fourteen
// repositories, against tree-sitter's): the patterns where the new outline
// went wrong.
func TestOutlineReviewCases(t *testing.T) {
	checkOutlines(t, []outlineCase{
		{"a backtick in a regular expression", "a.ts",
			"const toCamel = (a: string) => a.replace(/`|'/g, '')\n\nexport function next() {\n  return 1;\n}\n",
			[]string{"toCamel function  1-1", "next function  3-5"}},
		{"escaped backticks and a nested template", "a.ts",
			"export function watch() {\n  warn(\n    `\\`watch(fn)\\` moved. ` +\n      `${ctx.isTS ? ` //@ts-ignore\\n` : ``}`,\n  )\n}\n\nexport function doWatch() {\n  return 1;\n}\n",
			[]string{"watch function  1-6", "doWatch function  8-10"}},
		{"a backtick in a block comment", "a.ts",
			"/**\n * use { `[ORIG_ID]: id }\n */\nexport function get() {\n  return 1;\n}\n\nexport function assert() {\n  return 2;\n}\n",
			[]string{"get function  4-6", "assert function  8-10"}},
		{"a generic's parameters closing at the margin", "a.ts",
			"export interface VNode<\n  HostNode = RendererNode,\n> {\n  el: HostNode\n}\n\nexport const x = 1;\n",
			[]string{"VNode interface  1-5", "x variable  7-7"}},
		{"a signature going on after a } at the margin", "a.tsx",
			"export const Triggers = ({\n  children,\n}: { children: Node } & Omit<\n  Props,\n  \"x\"\n>) => {\n  return children;\n};\n",
			[]string{"Triggers function  1-8"}},
		{"parentheses over lines whose closing line calls with an arrow: no parameters", "a.ts",
			"const ids = (\n  await getUsers()\n).filter((u) => u.active);\n\nconst x = a === (\n  b\n) ? () => 1 : 2;\n\nexport const f = ({\n  a,\n}: { a: (x: number) => void }): Promise<void> => {\n  return go(a);\n};\n",
			[]string{"ids variable  1-3", "x variable  5-7", "f function  9-13"}},
		{"a function's type before its value; a typed value; parentheses over lines that hold no parameters", "a.ts",
			"export const handler: (req: Request) => Promise<Response> = async (req) => {\n  return go(req);\n};\n\nconst t: (a: number) => void = noop;\n\nconst sum = (\n  a + b\n);\n",
			[]string{"handler function  1-3", "t variable  5-5", "sum variable  7-9"}},
		{"a Go label at the margin", "a.go",
			"package a\n\nfunc (c *Command) Remove(cmds ...*Command) {\n\tcommands := []*Command{}\nmain:\n\tfor _, command := range c.commands {\n\t\tcontinue main\n\t}\n}\n",
			[]string{"Remove method Command 3-9"}},
		{"a Go label at the margin with a comment after it", "a.go",
			"package a\n\nfunc (n *node) getValue(path string) {\nwalk: // Outer loop for walking the tree\n\tfor {\n\t\tcontinue walk\n\t}\n\t/* done */\n}\n\nfunc after() {}\n",
			[]string{"getValue method node 3-9", "after function  11-11"}},
		{"a C++ access specifier at the margin with a comment after it", "a.hpp",
			"class Buffer {\npublic: // the interface\n  int size() const { return n; }\nprivate: /* the state */\n  int n;\n};\n\nint after() { return 0; }\n",
			[]string{"Buffer type  1-6", "size method Buffer 3-3", "after function  8-8"}},
		{"a C struct before declarations", "a.c",
			"struct entry {\n\tint key;\n};\nRB_HEAD(tree, entry);\nstatic int\tcmp(struct entry *,\n\t    struct entry *);\n#define A 1\n#define B(x) \\\n\t((x) + 1)\nint f(void)\n{\n\treturn 0;\n}\n",
			[]string{"entry type  1-3", "A constant  7-7", "B constant  8-9", "f function  10-13"}},
		{"a Rust byte string over lines", "a.rs",
			"fn test_version() {\n    let output = b\"less 487\nCopyright (C) 1984\n\";\n    check(output);\n}\n\nfn after() {}\n",
			[]string{"test_version function  1-6", "after function  8-8"}},
		{"Rust impls for references and trait objects", "a.rs",
			"impl<'a> Trait for &'a Bar {\n    fn f(&self) {}\n}\nimpl Foo for &mut Baz {\n    fn g(&self) {}\n}\nimpl dyn Error + Send {\n    fn h(&self) {}\n}\n",
			[]string{"f method Bar 2-2", "g method Baz 5-5", "h method Error 8-8"}},
		{"C declarations over lines with an attribute", "a.h",
			"extern int foo(int a,\n\tint b) __THROW;\nint bar(int a,\n\tint b) __attribute__((deprecated));\n",
			nil},
		{"TypeScript methods whose parameters take a function", "a.ts",
			"export class Bus {\n  on(event: string, handler: (e: Event) => void): void {\n    this.h.push(handler);\n  }\n  map<T>(fn: (x: T) => void): void {\n    go();\n  }\n  run() {\n    it('does', () => {\n      go();\n    });\n    items.forEach((x) => {\n      go(x);\n    });\n  }\n}\n",
			[]string{"Bus class  1-16", "on method Bus 2-4", "map method Bus 5-7", "run method Bus 8-15"}},
		{"PHP's HTML inside a method", "a.php",
			"<?php\nclass View {\n    public function render() { ?>\n    <div class=\"x\">\n        <?= $this->title ?>\n    </div>\n    <?php }\n\n    public function other() {\n        return 1;\n    }\n}\n",
			[]string{"View class  2-12", "render method View 3-7", "other method View 9-11"}},
		{"Kotlin's constructor on a line of its own", "a.kt",
			"expect open class ByteString\n// Trusted internal constructor.\ninternal constructor(data: ByteArray) : Comparable<ByteString> {\n    fun utf8(): String\n}\n",
			[]string{"ByteString class  1-5", "utf8 method ByteString 4-4"}},
		{"Java annotations with arguments on a method's line", "A.java",
			"public class A {\n    @GetMapping(\"/x\") public String list() {\n        return \"a\";\n    }\n    @SuppressWarnings({\"unchecked\", \"(\"}) <T> T cast(Object o) {\n        return (T) o;\n    }\n    @Override\n    public String toString() {\n        return tags.get(0);\n    }\n}\n\n@interface Marker {\n}\n",
			[]string{"A class  1-12", "list method A 2-4", "cast method A 5-7", "toString method A 9-11", "Marker interface  14-15"}},
		{"C# attributes on a method's line, tuple return types", "C.cs",
			"public class C {\n    [HttpGet(\"x\")] public IActionResult Get() {\n        return Ok();\n    }\n    public (int count, string name) Pair() {\n        return (1, \"a\");\n    }\n    [Fact][Trait(\"a\", \"b\")] async Task Runs() {\n        (a, b) = Swap(a, b);\n        var n = (int) Count();\n    }\n}\n",
			[]string{"C class  1-12", "Get method C 2-4", "Pair method C 5-7", "Runs method C 8-11"}},
		{"decorators on a method's line", "a.ts",
			"export class Panel {\n  @Input() name: string;\n  @HostListener('click', ['$event']) onClick(e: Event) {\n    this.open = !this.open;\n  }\n}\n",
			[]string{"Panel class  1-6", "onClick method Panel 3-5"}},
		{"Dart annotations with arguments on a method's line", "a.dart",
			"class Store {\n  @Deprecated('use put') void add(int x) {\n    put(x);\n  }\n}\n",
			[]string{"Store class  1-5", "add method Store 2-4"}},
		{"a review's annotation cases: an escaped backslash, an annotation type after annotations", "A.java",
			"public class A {\n    @A(\"\\\\\") public void esc() {\n    }\n    @Retention(RUNTIME) @interface Inner {\n    }\n}\n",
			[]string{"A class  1-6", "esc method A 2-3", "Inner interface A 4-5"}},
		{"C# tuples that may be null, arrays of tuples", "C.cs",
			"public class C {\n    public (int, string)? Find() {\n        return null;\n    }\n    (int, int)[] Pairs() {\n        return x;\n    }\n}\n",
			[]string{"C class  1-8", "Find method C 2-4", "Pairs method C 5-7"}},
		{"an inline namespace; one an #if leaves open twice ends at its line", "a.cc",
			"inline  namespace v1 {\nint f() {\n    return 1;\n}\n}\nnamespace rocks {\n#ifdef A\nvoid g() {\n#else\nvoid g(int) {\n#endif\n}\n}\n",
			[]string{"v1 module  1-5", "f function  2-4", "rocks module  6-6", "g function  8-9", "g function  10-12"}},
		{"C++ namespaces end at their braces", "a.hpp",
			"namespace outer {\nnamespace inner\n{\nint f(int a) {\n    return a;\n}\n}  // namespace inner\n}  // namespace outer\n\nint g() {\n    return 1;\n}\n",
			[]string{"outer module  1-8", "inner module  2-7", "f function  4-6", "g function  10-12"}},
	})
}

// outlineCase is a source file and the outline the line patterns should
// give it (outlineDefs' lines).
type outlineCase struct {
	name, path, src string
	want            []string
}

func checkOutlines(t *testing.T, tests []outlineCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := outlineDefs(ExtractFallback(tt.path, []byte(tt.src))); !slices.Equal(got, tt.want) {
				t.Errorf("defs %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFallbackCEnumKind: a C or C++ enum is of kind enum however it is
// written, as tree-sitter's tags have it; a typedef's name is a type.
func TestFallbackCEnumKind(t *testing.T) {
	src := "enum color { RED, GREEN };\nenum class Mode : int {\n  Run,\n};\ntypedef enum level {\n  LOW\n} level_t;\nstruct enumerated {\n  int n;\n};\n"
	want := []string{"enum color", "enum Mode", "enum level", "type level_t", "type enumerated"}
	var got []string
	for _, d := range ExtractFallback("e.h", []byte(src)).Defs {
		got = append(got, d.Kind+" "+d.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
}

// A Go method's receiver, named or not, written as gofmt writes it or not:
// the method is its type's.
func TestGoReceivers(t *testing.T) {
	for _, line := range []string{
		"func (e *errNotFound) Error() string",
		"func (e errNotFound) Error() string",
		"func (errNotFound) Error() string",
		"func (*errNotFound) Error() string",
		"func (e*errNotFound) Error() string",
		"func (e* errNotFound) Error() string",
		"func ( e  *errNotFound ) Error() string",
		"func (e *errNotFound[T]) Error() string",
	} {
		defs := ExtractFallback("a.go", []byte("package a\n\n"+line+" { return \"\" }\n")).Defs
		if len(defs) != 1 || defs[0].Container != "errNotFound" || defs[0].Name != "Error" {
			t.Errorf("%s: %+v, want errNotFound.Error", line, defs)
		}
	}
}
