package pack

import (
	"strings"
	"testing"
)

// Each language's imports come whole: the run of import lines, every
// block to the line that closes it.
func TestImportLines(t *testing.T) {
	tests := []struct {
		lang, src string
		from, to  int
		def       [2]int // lines that lie in a definition, if any
	}{
		{"go", "package redis\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\tred \"github.com/redis/go-redis/v9\"\n)\n\nconst x = 1\n", 1, 8, [2]int{}},
		{"go, one import", "package a\n\nimport \"fmt\"\n\nfunc F() {}\n", 1, 3, [2]int{}},
		{"go, two blocks", "package a\n\nimport (\n\t\"fmt\"\n)\n\nimport (\n\t\"os\"\n)\n\nvar v = 1\n", 1, 9, [2]int{}},
		{"python", "\"\"\"Doc.\"\"\"\nimport os\nfrom typing import (\n    Any,\n    Optional,\n)\n\nif TYPE_CHECKING:\n    from .app import Kiln\n\nX = 1\n", 2, 9, [2]int{}},
		{"rust", "use std::{\n    fs,\n    io::{self, Read},\n};\nuse crate::config;\n\nfn main() {}\n", 1, 5, [2]int{}},
		{"typescript", "import {\n  a,\n  b,\n} from './x';\nimport type { C } from './c';\n\nexport function f() {}\n", 1, 5, [2]int{}},
		{"java", "package com.x;\n\nimport java.util.List;\nimport java.util.Map;\n\npublic class A {}\n", 1, 4, [2]int{}},
		{"c", "/* Copyright */\n#include <stdio.h>\n#include \"lzpack.h\"\n\n#define N 3\nint main(void) {}\n", 2, 3, [2]int{}},
		{"ruby", "require 'json'\nrequire_relative 'x'\n\nclass A; end\n", 1, 2, [2]int{}},
		{"csharp", "using System;\nusing System.IO;\n\nnamespace A {}\n", 1, 2, [2]int{}},
		{"javascript, CommonJS", "'use strict'\n\nconst util = require('util')\nconst { a, b } = require('./ab')\nvar x = require('x')(1)\n\nconst COOKIES = Symbol('c')\nfunction f() {}\n", 3, 5, [2]int{}},
		{"typescript, re-exports", "export * from './a';\nexport { b, c } from './bc';\nexport type { D } from './d';\n\nexport const e = 1;\n", 1, 3, [2]int{}},
		{"rust, modules and re-exports", "extern crate alloc;\n\nmod parser;\npub mod lexer;\npub(crate) use crate::lexer::Token;\n\npub fn run() {}\n", 1, 5, [2]int{}},
		{"go, a bracket in a comment", "package store\n\nimport (\n\t\"context\"\n\t\"encoding/json\" // decoding rows (JSON columns)\n\t\"errors\"\n)\n\nfunc F() {}\n", 1, 7, [2]int{}},
		{"python, a bracket in a comment", "from typing import (\n    Iterable,  # rows (any iterable)\n    Optional,\n)\n\nX = 1\n", 1, 4, [2]int{}},
		{"typescript, a URL in a string", "import {\n  serve, // the http server (deno)\n} from \"https://deno.land/std/http/server.ts\";\n\nserve();\n", 1, 3, [2]int{}},
		{"javascript, a require destructured over lines", "const {\n  readFileSync,\n  writeFileSync, // (sync)\n} = require('fs');\nconst path = require('path');\n\nfunction save() {}\n", 1, 5, [2]int{}},
		{"javascript, an object literal is no import", "const {\n  a,\n} = options;\n\nfunction f() {}\n", 0, 0, [2]int{}},
		{"an unclosed block is left out", "package a\n\nimport (\n\t\"fmt\"\n", 1, 1, [2]int{}},
		{"none", "x = 1\ny = 2\n", 0, 0, [2]int{}},
		{"rust, a use tree nested over lines", "use std::{\n    collections::{\n        HashMap,\n        HashSet,\n    },\n    io,\n};\n\nfn main() {}\n", 1, 7, [2]int{}},
		{"python, nested brackets and one in a comment", "from x import (a,\n    b)\nfrom y import (\n    c,  # (\n    d,\n)\n\nX = 1\n", 1, 6, [2]int{}},
		{"python, a line continued", "import os\nfrom foo import a, \\\n    b\n\n\ndef f():\n    pass\n", 1, 3, [2]int{}},
		{"go, a bracket in a path", "package a\n\nimport (\n\t\"fmt\"\n\tx \"example.com/a)b\"\n\t\"os\"\n)\n\nfunc F() {}\n", 1, 7, [2]int{}},
		{"c, a conditional among the includes", "#include <stdio.h>\n#ifdef _WIN32\n#include <windows.h>\n#endif\n\nint main(void) {}\n", 1, 4, [2]int{}},
		{"c, a conditional around the includes", "#ifdef _WIN32\n#include <windows.h>\n#else\n#include <unistd.h>\n#endif\n\nint main(void) {}\n", 1, 5, [2]int{}},
		{"cpp, a conditional whose #if goes on over lines", "#include \"render.h\"\n\n#ifndef TXT_USE_FCNTL\n// UWP has no _pipe.\n#  if TXT_HAS_INCLUDE(\"winapifamily.h\")\n#    include <winapifamily.h>\n#  endif\n#  if (TXT_HAS_INCLUDE(<fcntl.h>) || \\\n       defined(__linux__)) && \\\n      !defined(__wasm__)\n#    include <fcntl.h>\n#    define TXT_USE_FCNTL 1\n#  else\n#    define TXT_USE_FCNTL 0\n#  endif\n#endif\n\nint f(void);\n", 1, 16, [2]int{}},
		{"c, nested conditionals that nothing closes are left out, the outer one too", "#include <a.h>\n#if A\n#include <b.h>\n#if B\n#include <c.h>\nint x;\n#endif\n#endif\n\nint f(void);\n", 1, 1, [2]int{}},
		{"cpp, a conditional that nothing closes is left out", "#include <a.h>\n\n#ifndef B\n#  include <b.h>\nint g;\n#endif\n\nint f(void);\n", 1, 1, [2]int{}},
		{"c, a header's guard is not the includes'", "#ifndef A_H\n#define A_H\n\n#include <stdio.h>\n\nint f(void);\n\n#endif\n", 4, 4, [2]int{}},
		{"typescript, a re-export over lines", "import a from 'a';\nexport {\n  b,\n  c,\n} from './bc';\nexport type {\n  D,\n} from './d';\n\nexport const e = 1;\n", 1, 8, [2]int{}},
		{"typescript, an export list is no import", "import a from 'a';\n\nconst b = 1;\nexport {\n  b,\n};\n", 1, 1, [2]int{}},
		{"javascript, a function's own require", "const fs = require('fs');\n\nfunction load() {\n  const path = require('path');\n  return path;\n}\n", 1, 1, [2]int{3, 6}},
		{"swift, an attribute with arguments", "@_spi(Internal) import MyKit\nimport Foundation\n\nstruct A {}\n", 1, 2, [2]int{}},
		{"swift, an attribute's import", "import Foundation\nimport UIKit\n@testable import MyKit\n\nstruct A {}\n", 1, 3, [2]int{}},
		{"swift, a conditional import", "// Copyright\n\nimport Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n\nstruct A {}\n", 3, 6, [2]int{}},
		{"kotlin", "package com.x\n\nimport kotlinx.coroutines.flow.Flow\nimport java.io.File as JFile\n\nclass A\n", 1, 4, [2]int{}},
		{"dart, its directives", "library x;\n\nimport 'dart:async';\nimport 'package:http/http.dart' as http show Client;\nexport 'src/a.dart';\npart 'x.g.dart';\n\nclass A {}\n", 1, 6, [2]int{}},
		{"dart, an import over lines", "import 'package:x/x.dart'\n    show A, B;\nimport 'dart:io';\n\nclass A {}\n", 1, 3, [2]int{}},
		{"dart, a part's own file", "part of 'x.dart';\n\nclass B {}\n", 1, 1, [2]int{}},
		{"php, its namespace and uses", "<?php\n\nnamespace App\\Http;\n\nuse Illuminate\\Support\\Str;\nuse App\\{A, B};\n\nclass X {}\n", 3, 6, [2]int{}},
		{"scala", "package a\n\nimport scala.collection.mutable\nimport a.{B, C}\n\nobject X\n", 1, 4, [2]int{}},
		{"csharp, global and static usings", "global using X;\nusing System;\nusing static System.Math;\nusing Alias = A.B;\n\nnamespace A;\n\nclass C {}\n", 1, 6, [2]int{}},
		{"objective-c", "#import <Foundation/Foundation.h>\n#import \"A.h\"\n\n@implementation A\n@end\n", 1, 2, [2]int{}},
		{"python, a comment is no import", "# import this later\n\nX = 1\n", 0, 0, [2]int{}},
		{"lua", "local json = require(\"json\")\nlocal x = require \"x\"\n\nfunction f() end\n", 1, 2, [2]int{}},
		{"elixir", "defmodule A do\n  alias B.C\n  import D\n\n  def f, do: 1\nend\n", 2, 3, [2]int{}},
		{"zig", "const std = @import(\"std\");\nconst mem = std.mem;\n\npub fn main() void {}\n", 1, 1, [2]int{}},
		{"r", "library(dplyr)\nlibrary(\"ggplot2\")\n\nf <- function(x) x\n", 1, 2, [2]int{}},
		{"python, a docstring's line that starts with part of", "\"\"\"Helpers of the scheduler, which is\npart of the public API.\n\nMore of it.\n\"\"\"\n\nimport os\nimport sys\n\nX = 1\n", 7, 8, [2]int{}},
		{"shell, an export and an alias are no imports", "#!/bin/sh\nexport \"PATH=$HOME/bin:$PATH\"\nalias L='ls -l'\nset -e\n", 0, 0, [2]int{}},
		{"elixir, aliases of several kinds", "alias A.B\nalias A.{C, D}\nalias E.F, as: G\n\ndefmodule X do\nend\n", 1, 3, [2]int{}},
		{"rust, a crate's doc comment with example code", "/*!\nThe crate.\n\n```\nuse globkit::Glob;\n\nlet g = Glob::new(\"*.rs\")?;\n```\n*/\n\n#![deny(missing_docs)]\n\nuse std::fmt;\nuse crate::glob::Glob;\n\npub fn f() {}\n", 13, 14, [2]int{}},
		{"c, a block comment between the includes", "#include <a.h>\n/*\n#include <old.h>\n*/\n#include <b.h>\n\nint main(void) {}\n", 1, 5, [2]int{}},
		{"python, a module docstring with example imports", "\"\"\"Usage:\n\nimport foo\nfrom foo import bar\n\"\"\"\n\nimport os\n\nX = 1\n", 7, 7, [2]int{}},
		{"python, a docstring with a two-letter prefix", "rb'''Usage:\nimport foo\n'''\n\nimport os\n\nX = 1\n", 5, 5, [2]int{}},
		{"python, a function's own import, none at the top", "\"\"\"Doc.\"\"\"\nVERSION = '1'\n\ndef main():\n    import sys\n    return sys\n", 0, 0, [2]int{4, 6}},
	}
	for _, tt := range tests {
		lines := strings.Split(strings.TrimRight(tt.src, "\n"), "\n")
		var inDef func(int) bool
		if tt.def[0] > 0 {
			inDef = func(l int) bool { return tt.def[0] <= l && l <= tt.def[1] }
		}
		from, to := importLines(lines, inDef)
		if from != tt.from || to != tt.to {
			t.Errorf("%s: importLines = %d-%d, want %d-%d", tt.lang, from, to, tt.from, tt.to)
		}
		// No bracket of code is left open, nor a preprocessor
		// conditional.
		paren, brace, cond := 0, 0, 0
		directive := false // a preprocessor directive's line, or one it goes on to
		for _, l := range lines[max(from-1, 0):to] {
			t := strings.TrimSpace(l)
			directive = strings.HasPrefix(t, "#") || directive
			if !directive {
				paren += bracketDepth(l, '(', ')')
				brace += bracketDepth(l, '{', '}')
			}
			cond += directiveDepth(l)
			directive = directive && strings.HasSuffix(t, "\\")
		}
		if paren != 0 || brace != 0 || cond != 0 {
			t.Errorf("%s: lines %d-%d cut a block: ( %+d, { %+d, #if %+d", tt.lang, from, to, paren, brace, cond)
		}
	}
}

func FuzzImportLines(f *testing.F) {
	f.Add("package a\n\nimport (\n\t\"fmt\"\n)\n")
	f.Add("use a::{\nb};\n")
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Split(src, "\n")
		from, to := importLines(lines, nil)
		if to < from || to > len(lines) || (from == 0) != (to == 0) {
			t.Fatalf("importLines = %d-%d of %d lines", from, to, len(lines))
		}
	})
}
