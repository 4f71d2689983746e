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
	}{
		{"go", "package redis\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\tred \"github.com/redis/go-redis/v9\"\n)\n\nconst x = 1\n", 1, 8},
		{"go, one import", "package a\n\nimport \"fmt\"\n\nfunc F() {}\n", 1, 3},
		{"go, two blocks", "package a\n\nimport (\n\t\"fmt\"\n)\n\nimport (\n\t\"os\"\n)\n\nvar v = 1\n", 1, 9},
		{"python", "\"\"\"Doc.\"\"\"\nimport os\nfrom typing import (\n    Any,\n    Optional,\n)\n\nif TYPE_CHECKING:\n    from .app import Flask\n\nX = 1\n", 2, 9},
		{"rust", "use std::{\n    fs,\n    io::{self, Read},\n};\nuse crate::config;\n\nfn main() {}\n", 1, 5},
		{"typescript", "import {\n  a,\n  b,\n} from './x';\nimport type { C } from './c';\n\nexport function f() {}\n", 1, 5},
		{"java", "package com.x;\n\nimport java.util.List;\nimport java.util.Map;\n\npublic class A {}\n", 1, 4},
		{"c", "/* Copyright */\n#include <stdio.h>\n#include \"zstd.h\"\n\n#define N 3\nint main(void) {}\n", 2, 3},
		{"ruby", "require 'json'\nrequire_relative 'x'\n\nclass A; end\n", 1, 2},
		{"csharp", "using System;\nusing System.IO;\n\nnamespace A {}\n", 1, 2},
		{"javascript, CommonJS", "'use strict'\n\nconst util = require('util')\nconst { a, b } = require('./ab')\nvar x = require('x')(1)\n\nconst COOKIES = Symbol('c')\nfunction f() {}\n", 3, 5},
		{"typescript, re-exports", "export * from './a';\nexport { b, c } from './bc';\nexport type { D } from './d';\n\nexport const e = 1;\n", 1, 3},
		{"rust, modules and re-exports", "extern crate alloc;\n\nmod parser;\npub mod lexer;\npub(crate) use crate::lexer::Token;\n\npub fn run() {}\n", 1, 5},
		{"go, a bracket in a comment", "package store\n\nimport (\n\t\"context\"\n\t\"encoding/json\" // decoding rows (JSON columns)\n\t\"errors\"\n)\n\nfunc F() {}\n", 1, 7},
		{"python, a bracket in a comment", "from typing import (\n    Iterable,  # rows (any iterable)\n    Optional,\n)\n\nX = 1\n", 1, 4},
		{"typescript, a URL in a string", "import {\n  serve, // the http server (deno)\n} from \"https://deno.land/std/http/server.ts\";\n\nserve();\n", 1, 3},
		{"javascript, a require destructured over lines", "const {\n  readFileSync,\n  writeFileSync, // (sync)\n} = require('fs');\nconst path = require('path');\n\nfunction save() {}\n", 1, 5},
		{"javascript, an object literal is no import", "const {\n  a,\n} = options;\n\nfunction f() {}\n", 0, 0},
		{"an unclosed block is left out", "package a\n\nimport (\n\t\"fmt\"\n", 1, 1},
		{"none", "x = 1\ny = 2\n", 0, 0},
	}
	for _, tt := range tests {
		lines := strings.Split(strings.TrimRight(tt.src, "\n"), "\n")
		from, to := importLines(lines)
		if from != tt.from || to != tt.to {
			t.Errorf("%s: importLines = %d-%d, want %d-%d", tt.lang, from, to, tt.from, tt.to)
		}
		if to > 0 {
			if o, c := strings.Count(strings.Join(lines[from-1:to], "\n"), "("), strings.Count(strings.Join(lines[from-1:to], "\n"), ")"); o != c {
				t.Errorf("%s: lines %d-%d cut a block: %d ( and %d )", tt.lang, from, to, o, c)
			}
		}
	}
}

func FuzzImportLines(f *testing.F) {
	f.Add("package a\n\nimport (\n\t\"fmt\"\n)\n")
	f.Add("use a::{\nb};\n")
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Split(src, "\n")
		from, to := importLines(lines)
		if to < from || to > len(lines) || (from == 0) != (to == 0) {
			t.Fatalf("importLines = %d-%d of %d lines", from, to, len(lines))
		}
	})
}
