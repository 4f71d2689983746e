package structure

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// outlineDefs renders definitions as "name kind container first-last".
func outlineDefs(o Outline) []string {
	var out []string
	for _, d := range o.Defs {
		out = append(out, fmt.Sprintf("%s %s %s %d-%d", d.Name, d.Kind, d.Container, d.Line, d.EndLine))
	}
	return out
}

func outlineCalls(o Outline) []string {
	var out []string
	for _, c := range o.Calls {
		out = append(out, fmt.Sprintf("%s:%d", c.Name, c.Line))
	}
	return out
}

func outlineRefs(o Outline) []string {
	var out []string
	for _, r := range o.Refs {
		out = append(out, fmt.Sprintf("%s/%s:%d", r.Name, r.Kind, r.Line))
	}
	return out
}

// The fixtures under testdata/, one per language, with what tree-sitter
// must find in them: every definition (with kind, container and exact line
// range), every call, the imports as written, and some references.
var treeSitterCases = []struct {
	file    string
	defs    []string
	calls   []string
	refs    []string // a subset of the references, in order
	imports []string
}{
	{"sample.go",
		[]string{"Server type  9-11", "Handler interface  13-15", "Alias type  17-17", "MaxConns constant  19-19",
			"registry variable  22-22", "New function  25-27", "Start method Server 29-32", "Stop method Server 34-34",
			"errNotFound type  37-37", "Error method errNotFound 39-39", "NotFound method errNotFound 41-41", "Unformatted method errNotFound 43-43"},
		[]string{"Println:30", "Open:31"},
		[]string{"Server/type:17", "Handler/type:22", "Server/type:29"},
		[]string{"example.com/m/index", "fmt"}},
	{"sample.py",
		[]string{"MAX_RETRIES variable  8-8", "Session class  12-22", "refresh method Session 15-16", "close method Session 19-22",
			"inner function close 20-21", "make_session function  25-26"},
		[]string{"get_logger:9", "renew:16", "inner:22", "Session:26"},
		[]string{"Base/class:12", "Logged/class:12", "Clock/type:15"},
		[]string{"os", "sys", ".", ".views", "..db.models", "..db.models.Model", "..db.models.Field"}},
	{"sample.ts",
		[]string{"renew export  3-3", "verify export  3-3", "SessionOptions interface  5-7", "SessionId type  9-9", "Mode enum  11-11",
			"SessionManager class  13-22", "refresh method SessionManager 16-21", "refreshSession function  24-26",
			"DEFAULT_TTL variable  28-28", "handler function  29-32"},
		[]string{"Map:14", "has:17", "signJwt:18", "refresh:25", "foo:31"},
		[]string{"SessionId/type:16", "Clock/type:16"},
		[]string{"../lib/jwt-utils", "./clock", "./session", "./lazy"}},
	{"sample.js",
		[]string{"path variable  1-1", "Widget class  4-12", "render method Widget 9-11", "ids function  14-16", "make function  18-20"},
		[]string{"helper:10", "Widget:19"},
		nil,
		[]string{"path", "./helper"}},
	{"Sample.java",
		[]string{"TokenService class  8-24", "TokenService method TokenService 11-13", "verify method TokenService 15-17",
			"State enum TokenService 19-19", "Listener interface TokenService 21-23", "onExpire method Listener 22-22"},
		[]string{"ArrayList:12", "expiry:16", "now:16"},
		[]string{"BaseService/class:8", "Verifier/implementation:8", "Token/type:9"},
		[]string{"java.util.List", "com.acme.auth.Token", "com.acme.util.Strings.join", "com.acme.model"}},
	{"sample.rs",
		[]string{"Pool type  6-9", "new method Pool 12-14", "dial method Pool 18-20", "Check interface  23-25", "check method Check 24-24",
			"State enum  27-27", "MAX constant  29-29", "pool macro  31-33", "main function  35-38"},
		[]string{"new:13", "dial:19", "new:36", "println:37"},
		[]string{"Conn/implementation:17", "Dial/type:18"},
		[]string{"std::collections::HashMap", "crate::conn::Conn", "crate::conn::Dial", "super::pool", "util"}},
	{"sample.c",
		[]string{"MAX_BUF constant  4-4", "MIN macro  5-5", "buf type  7-10", "buf_t type  12-12", "color enum  14-14",
			"buf_len function  16-16", "buf_data function  18-21", "main function  23-28"},
		[]string{"printf:26", "buf_len:26"},
		[]string{"buf/type:12", "buf_t/type:16"},
		[]string{"<stdio.h>", "util/buf.h"}},
	{"sample.cpp",
		[]string{"net module  4-23", "Pool class net 6-12", "Pool method Pool 8-8", "size method Pool 9-9", "Pool method Pool 14-16",
			"max_of function net 19-21"},
		[]string{"init:15", "max:20"},
		[]string{"Base/type:6"},
		[]string{"<vector>", "pool.hpp"}},
	{"sample.rb",
		[]string{"Auth module  4-20", "TTL constant Auth 5-5", "Token class Auth 7-19", "initialize method Token 8-10",
			"parse method Token 12-14", "expired? method Token 16-18"},
		[]string{"new:13", "parse:13", "now:17"},
		[]string{"Base/class:7", "JSON/class:13", "Clock/class:17"},
		[]string{"json", "lib/auth"}},
	{"Sample.cs",
		[]string{"Acme.Auth module  5-26", "IVerifier interface Acme.Auth 7-10", "Verify method IVerifier 9-9",
			"TokenService class Acme.Auth 12-23", "TokenService method TokenService 14-14", "Count field TokenService 16-16",
			"Verify method TokenService 18-22", "State enum Acme.Auth 25-25"},
		[]string{"List:20", "Check:21", "Contains:21"},
		[]string{"BaseService/class:12", "IVerifier/class:12"},
		[]string{"System", "System.Collections.Generic", "Acme.Auth.Token"}},
	{"sample.php",
		[]string{`App\Auth module  2-2`, "Verifier interface  8-10", "verify method Verifier 9-9", "TokenService class  12-20",
			"TTL constant TokenService 13-13", "tokens field TokenService 14-14", "verify method TokenService 16-19", "helper function  22-24"},
		[]string{"User:17", "check_token:18", "active:18", "make:23"},
		[]string{"Verifier/implementation:12"},
		[]string{`App\Models\User`, `App\Support\Clock`, "helpers.php"}},
	{"sample.scala",
		[]string{"com.acme.auth module  1-1", "Verifier interface  6-8", "verify method Verifier 7-7", "TokenService class  10-17",
			"name variable TokenService 11-11", "verify method TokenService 13-16", "TokenService class  19-21", "apply method TokenService 20-20"},
		[]string{"now:14", "check:15", "TokenService:20"},
		[]string{"Verifier/class:10"},
		[]string{"scala.collection.mutable", "com.acme.util"}},
	{"sample.kt",
		[]string{"Verifier interface  6-8", "verify method Verifier 7-7", "TokenService class  10-21", "name variable TokenService 11-11",
			"verify method TokenService 13-16", "Factory class TokenService 18-20", "create method Factory 19-19", "State enum  23-23",
			"main function  25-27"},
		[]string{"now:14", "check:15", "TokenService:19", "println:26", "create:26"},
		[]string{"Verifier/class:10", "TokenService/type:19"},
		[]string{"com.acme.util.Clock", "com.acme.model"}},
	{"sample.sh",
		[]string{"build function  5-8", "deploy function  10-13"},
		[]string{"echo:6", "make:7", "build:11", "rsync:12", "deploy:15"},
		nil,
		[]string{"./lib/common.sh", "./lib/env.sh"}},
}

func TestTreeSitterLanguages(t *testing.T) {
	needTreeSitter(t)
	for _, tt := range treeSitterCases {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			o := Extract(tt.file, src)
			if o.Parser != ParserTreeSitter || o.Err != "" {
				t.Fatalf("parser %q, err %q", o.Parser, o.Err)
			}
			if got := outlineDefs(o); !reflect.DeepEqual(got, tt.defs) {
				t.Errorf("defs:\n got  %q\n want %q", got, tt.defs)
			}
			if got := outlineCalls(o); !reflect.DeepEqual(got, tt.calls) {
				t.Errorf("calls:\n got  %q\n want %q", got, tt.calls)
			}
			if !reflect.DeepEqual(o.Imports, tt.imports) {
				t.Errorf("imports:\n got  %q\n want %q", o.Imports, tt.imports)
			}
			got := outlineRefs(o)
			if !isSubsequence(tt.refs, got) {
				t.Errorf("refs:\n got  %q\n want among them %q", got, tt.refs)
			}
			for _, r := range o.Refs {
				for _, d := range o.Defs {
					if r.Name == d.Name && r.Line == d.Line && r.Kind == "type" && strings.HasPrefix(d.Kind, "type") {
						t.Errorf("definition %s listed as a reference of itself", d.Name)
					}
				}
			}
		})
	}
}

func isSubsequence(sub, of []string) bool {
	i := 0
	for _, s := range of {
		if i < len(sub) && s == sub[i] {
			i++
		}
	}
	return i == len(sub)
}

func TestTreeSitterTSX(t *testing.T) {
	needTreeSitter(t)
	src := "import React from 'react';\n\nexport function Button({ label }: Props) {\n  return <button onClick={() => track(label)}>{label}</button>;\n}\n"
	o := Extract("ui/button.tsx", []byte(src))
	if o.Parser != ParserTreeSitter || o.Err != "" {
		t.Fatalf("parser %q, err %q", o.Parser, o.Err)
	}
	if got, want := outlineDefs(o), []string{"Button function  3-5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("defs %q, want %q", got, want)
	}
	if got, want := outlineCalls(o), []string{"track:4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	if !reflect.DeepEqual(o.Imports, []string{"react"}) {
		t.Errorf("imports %q", o.Imports)
	}
}

// A file with syntax errors still yields what tree-sitter recovers, and
// the first error is named.
func TestTreeSitterSyntaxErrors(t *testing.T) {
	needTreeSitter(t)
	src, err := os.ReadFile("testdata/broken.py")
	if err != nil {
		t.Fatal(err)
	}
	o := Extract("broken.py", src)
	if o.Parser != ParserTreeSitter {
		t.Fatalf("parser %q", o.Parser)
	}
	if !strings.Contains(o.Err, "line 5") {
		t.Errorf("err %q, want the error on line 5", o.Err)
	}
	want := []string{"Good class  1-3", "ok method Good 2-3", "broken function  5-6", "after function  8-9"}
	if got := outlineDefs(o); !reflect.DeepEqual(got, want) {
		t.Errorf("defs:\n got  %q\n want %q", got, want)
	}
	if got := outlineCalls(o); !reflect.DeepEqual(got, []string{"helper:9"}) {
		t.Errorf("calls %q", got)
	}
	// Unbalanced braces in Go: the functions before the damage survive.
	o = Extract("x.go", []byte("package x\n\nfunc A() {}\n\nfunc B( {\n\nfunc C() { D() }\n"))
	if o.Parser != ParserTreeSitter || o.Err == "" {
		t.Fatalf("parser %q, err %q", o.Parser, o.Err)
	}
	if len(o.Defs) == 0 || o.Defs[0].Name != "A" {
		t.Errorf("defs %q", outlineDefs(o))
	}
}

// Languages without a grammar keep the fallback patterns.
func TestTreeSitterFallbackLanguages(t *testing.T) {
	o := Extract("App.swift", []byte("class Session {\n    func refresh() {\n        renew()\n    }\n}\n"))
	if o.Parser != ParserFallback || o.Err != "" {
		t.Fatalf("parser %q, err %q", o.Parser, o.Err)
	}
	if got := outlineDefs(o); !reflect.DeepEqual(got, []string{"Session class  1-5", "refresh method Session 2-4"}) {
		t.Errorf("defs %q", got)
	}
	if got := outlineCalls(o); !reflect.DeepEqual(got, []string{"refresh:2", "renew:3"}) {
		t.Errorf("calls %q", got)
	}
	o = Extract("docs/guide.md", []byte("# Guide\n\ncall(me)\n"))
	if o.Parser != ParserFallback || len(o.Defs) != 1 || o.Calls != nil {
		t.Errorf("markdown: %+v", o)
	}
	o = Extract("x.unknownext", []byte("func f() {}\n"))
	if o.Parser != ParserFallback || o.Lang != "" || o.Defs != nil {
		t.Errorf("unknown: %+v", o)
	}
}

// Files over the size limit use the patterns; minified code, one long line,
// is parsed quickly.
func TestTreeSitterLargeInputs(t *testing.T) {
	needTreeSitter(t)
	big := []byte("def f():\n    pass\n" + strings.Repeat("#", MaxTreeSitterBytes))
	if o := Extract("big.py", big); o.Parser != ParserFallback || !strings.Contains(o.Err, "limit") || len(o.Defs) != 1 {
		t.Errorf("oversized: parser %q, err %q, %d defs", o.Parser, o.Err, len(o.Defs))
	}
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "function f%d(a,b){return a.g%d(b)||new W%d(a,[1,2,3],{k:'v'})}var v%d=f%d(1,2);", i, i, i, i, i)
	}
	start := time.Now()
	o := Extract("bundle.min.js", []byte(b.String()))
	// The timeout bounds it (a loaded machine may hit it: the clock is the
	// wall's); about 0.6 s of CPU otherwise.
	if d := time.Since(start); d > ParseTimeout+3*time.Second {
		t.Errorf("1 MiB of minified code took %s", d)
	}
	switch {
	case o.Parser == ParserFallback && strings.Contains(o.Err, "timed out"):
		t.Logf("minified: %s", o.Err)
	case o.Parser != ParserTreeSitter || len(o.Defs) < 1000 || len(o.Calls) < 1000:
		t.Errorf("minified: parser %q, err %q, %d defs, %d calls", o.Parser, o.Err, len(o.Defs), len(o.Calls))
	}
}

// FuzzTreeSitter sends arbitrary text to each grammar: no crash, no panic,
// lines in range.
func FuzzTreeSitter(f *testing.F) {
	paths := []string{"a.go", "a.py", "a.js", "a.ts", "a.tsx", "A.java", "a.rs", "a.c", "a.cpp", "a.rb", "A.cs", "a.php", "a.scala", "a.kt", "a.sh"}
	for i, tt := range treeSitterCases {
		src, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), string(src))
	}
	f.Add(uint8(0), "package x\nfunc (\n")
	f.Fuzz(func(t *testing.T, n uint8, src string) {
		p := paths[int(n)%len(paths)]
		o := Extract(p, []byte(src))
		if strings.Contains(o.Err, "panic") {
			t.Fatalf("%s: %s", p, o.Err)
		}
		lines := strings.Count(src, "\n") + 1
		for _, d := range o.Defs {
			if d.Line < 1 || d.EndLine < d.Line || d.EndLine > lines || d.Name == "" {
				t.Fatalf("%s: def %+v out of range 1..%d", p, d, lines)
			}
		}
		for _, c := range o.Calls {
			if c.Line < 1 || c.Line > lines {
				t.Fatalf("%s: call %+v out of range 1..%d", p, c, lines)
			}
		}
	})
}

// A function an assignment names for itself is one definition: the
// assignment's, whose container its nested functions take.
func TestTreeSitterSelfNamedAssignment(t *testing.T) {
	needTreeSitter(t)
	src := "function View() {}\n\nView.prototype.lookup = function lookup(name) {\n  return name;\n};\n\nView.prototype.render = function render(fn) {\n  function onRender() {\n    return fn();\n  }\n  return onRender;\n};\n\nconst call = function call() {};\nexports.other = function inner() {};\n"
	o := Extract("view.js", []byte(src))
	got := outlineDefs(o)
	want := []string{"View function  1-1", "lookup function  3-5", "render function  7-12", "onRender function render 8-10", "call function  14-14", "other function  15-15", "inner function other 15-15"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defs:\n got  %q\n want %q", got, want)
	}
	// A function nested in one of its name, ending where it ends, is
	// its own definition.
	py := Extract("retry.py", []byte("def retry(fn):\n    x = 1\n    def retry(*a):\n        return fn(*a)\n"))
	if got, want := outlineDefs(py), []string{"retry function  1-4", "retry function retry 3-4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nested python defs:\n got  %q\n want %q", got, want)
	}
}
