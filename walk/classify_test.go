package walk

import (
	"bytes"
	"strings"
	"testing"
)

func TestClassifyPath(t *testing.T) {
	tests := []struct {
		kind  Kind
		paths []string
	}{
		{Test, []string{
			"walk_test.go", "pkg/walk/walk_test.go", "test_walk.py", "pkg/walk_test.py",
			"conftest.py", "app/tests.py", "src/app.test.ts", "src/App.test.tsx",
			"lib/x.test.js", "lib/x.test.jsx", "src/app.spec.ts", "spec/models/user_spec.rb",
			"x.spec.js", "test/helpers.go", "tests/a.py", "src/__tests__/a.js",
			"internal/testing/x.go", "spec/a.rb", "pkg/testdata/input.json",
			"fixtures/a.yaml", "Test/Foo.cs", "src/__mocks__/fs.js", "foo_test.cc",
			"tests_integration/run.js", "tests_config/utils.js", "integration-tests/a.go",
			"e2e/login.ts", "unit_tests/a.c", "src/e2e-utils/a.py", "js_tests/shop/a.js",
			"core/src/main/java/a/ParserTest.java", "src/integration-test/java/a/BuildIntegrationTest.java",
			"a/FooTests.swift", "a/FooTestCase.kt", "a/FooIT.java", "a/Foo2Test.scala", "a/BarTests.cs",
			"sinkio/src/jvmTest/kotlin/sinkio/A.kt", "src/androidUnitTest/kotlin/B.kt", "src/commonTest/C.kt",
			"testsuite/src/main/java/a/Echo.java", "types/defineComponent.test-d.tsx", "index.test-d.ts",
			"base/strings_unittest.cc", "regress/quote-args.sh", "tests/compat/Makefile",
		}},
		{0, []string{ // not tests
			"contest.go", "latest/x.go", "protest_utils.py", "testament.go",
			"attest.py", "src/test_utils.go", "latest_version.py", "testing.go",
			"specific/x.go", "app.spec", "inspect.py", "x.tester.js", "tests.go",
			"contest/x.go", "mytests/x.go", "src/_qtest/runner.py", "latest-release/x.go",
			"testutil/x.go", "protest-kit/a.js", "e2etool/a.go",
			"cmd/server-test/main.go", "test-utils/render.js", "latests_x/a.go", "specs-go/v1/config.go",
			"src/main/java/a/Test.java", "a/XCTest.swift", "a/Latest.java", "a/Contest.kt", "a/Audit.java",
			"a/LoadTest.go", "a/parserTest.py", "src/JvmTest/A.kt", "a/Tests.cs",
			"a/ABTest.java", "src/main/java/a/Fit.java", "plotkit/_stats/regression.py", "regress.c", "statsmodels/regression/linear_model.py",
			"mllib/src/main/scala/org/apache/spark/ml/regression/LinearRegression.scala",
		}},
		{Vendor, []string{
			"vendor/github.com/x/y.go", "node_modules/react/index.js",
			"third_party/zlib/zlib.c", "third-party/x.c", "src/external/lib.c",
			"bower_components/jquery/jquery.js", "venv/lib/python3.12/site-packages/x.py",
			"web/node_modules/a/b/c.ts", "Godeps/_workspace/src/github.com/a/b/c.go",
			"deps/picotls/lib/picotls.c", "Dependencies/zlib/inflate.c",
		}},
		{0, []string{"vendors.go", "src/vendored.go", "externals.py", "node_module/x.js",
			"src/deps/resolve.go", "cmd/dependencies/list.go", "deps.go"}},
		{Generated, []string{
			"api/v1/api.pb.go", "api/v1/api.pb.gw.go", "proto/x_pb2.py", "proto/x_pb2_grpc.py",
			"src/Foo.generated.cs", "x.generated.ts", "zz_deepcopy.gen.go", "models_generated.go",
			"static/app.min.js", "static/site.min.css", "package-lock.json", "yarn.lock",
			"go.sum", "Cargo.lock", "poetry.lock", "pnpm-lock.yaml", "web/yarn.lock",
			"Gemfile.lock", "app.js.map", "dist/fetchy.js", "dist/node/fetchy.cjs", "packages/ui/dist/index.d.ts",
		}},
		{0, []string{
			"generated.go", "generator.go", "gen.go", "admin.js", "minimal.js", "dist.go",
			"distutils/core.py", "distribution/a.js", "src/dist_test_helpers.go",
			"go.mod", "Cargo.toml", "lock.go", "pb.go", "package.json",
		}},
		{Docs, []string{
			"README.md", "docs/index.html", "doc/design.go", "CHANGES.rst", "notes.txt",
			"guide.adoc", "LICENSE", "README", "docs/api/openapi.yaml", "x/y/CONTRIBUTING.md",
			"manual.markdown", ".github/ISSUE_TEMPLATE/BUG-REPORT.yml", ".gitlab/merge_request_templates/default.md",
		}},
		{0, []string{
			"document.go", "docsgen/x.go", "CMakeLists.txt", "requirements.txt",
			"requirements-dev.txt", "readme.go", "licenses.go",
		}},
		{Example, []string{
			"examples/hello/main.go", "example/x.py", "samples/a.cs", "demo/index.html",
			"pkg/examples/b.go",
		}},
		{0, []string{"example.go", "examples.go", "sampler/x.go", "demolition/x.go"}},
		{Secret, []string{
			".env", ".env.local", ".env.production", "config/.env", "certs/server.pem",
			"server.key", "cert.p12", "cert.pfx", "id_rsa", "home/.ssh/id_rsa.pub",
			"id_dsa", "id_ecdsa", "id_ed25519", "credentials", "credentials.json",
			"aws.credentials", ".netrc", ".npmrc", ".pypirc", "secrets.yaml",
			"k8s/secrets.yml", "secrets.json", ".git-credentials", "release.keystore",
			"production.env", "deploy/web.env", ".env-production", ".env_local", ".env~",
			".kube/config", "ops/.kube/config", "kubeconfig",
		}},
		{0, []string{
			"environment.py", "keyboard.go", "env.go", ".envrc", "keys.go", "monkey.py",
			"credentials.go", "secrets.go", "secret.md.go", "pem.go", "id.go",
			"apikey.go", "src/env/config.go", "config", "kube/config", ".kube/config.go", "env.example.go",
		}},
	}
	for _, tt := range tests {
		for _, p := range tt.paths {
			if got := Classify(p, nil); got != tt.kind {
				t.Errorf("Classify(%q) = %q, want %q", p, got, tt.kind)
			}
		}
	}
}

func TestClassifyCombinations(t *testing.T) {
	tests := []struct {
		path string
		want Kind
	}{
		{"vendor/x/x_test.go", Test | Vendor},
		{"node_modules/x/dist/x.min.js", Vendor | Generated},
		{"docs/examples/a.md", Docs | Example},
		{"examples/demo/.env", Example | Secret},
		{"testdata/secrets.yaml", Test | Secret},
		{"docs/notes_test.txt", Test | Docs},
		{"./internal/api/api.pb.go", Generated},
		{"", 0},
		{"/", 0},
		{"a//b", 0},
		{"test/", Test},
	}
	for _, tt := range tests {
		if got := Classify(tt.path, nil); got != tt.want {
			t.Errorf("Classify(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestClassifyContent(t *testing.T) {
	codeGen := "Code " + "generated"
	dne := "DO NOT " + "EDIT"
	gen, edit := "Gener"+"ated", "ed"+"it"
	longLine := strings.Repeat("x", 400)
	tests := []struct {
		name string
		path string
		head string
		want Kind
	}{
		{"go marker", "x.go", "// " + codeGen + " by protoc-gen-go. " + dne + ".\n\npackage x\n", Generated},
		{"go marker after header", "x.go", "// Copyright 2024\n\n// " + codeGen + " by mockgen. " + dne + ".\npackage x\n", Generated | Notice},
		{"python marker", "x.py", "# " + codeGen + " by tool. " + dne + ".\n", Generated},
		{"marker without period", "x.ts", "/* " + codeGen + " - " + dne + " */\n", Generated},
		{"at generated", "x.php", "<?php\n// @" + "generated by Hack\n", Generated},
		{"auto-generated", "x.cs", "// <auto-" + "generated>\n// tool\n// </auto-" + "generated>\n", Generated},
		{"bison", "src/parser.c", "/* A Bison parser, made by GNU " + "Bison 3.0.4.  */\n\n/* Bison implementation */\n", Generated},
		{"flex", "src/lexer.c", "#line 2 \"src/lexer.c\"\n\n#line 4 \"src/lexer.c\"\n\n#define  YY_INT_ALIGNED short int\n\n/* A lexical scanner generated by " + "flex */\n", Generated},
		{"swig", "x_wrap.c", "/* ----\n * This file was automatically generated by " + "SWIG (http://www.swig.org).\n */\n", Generated},
		{"thrift", "gen/x.cpp", "/**\n * Autogenerated by Thrift " + "Compiler (0.9.3)\n */\n", Generated},
		{"protoc c++", "x.pb.cc", "// Generated by the protocol buffer " + "compiler.  DO NOT EDIT!\n", Generated},
		{"a grammar's own source", "src/parser.y", "%{\n#include <stdio.h>\n/* parsed by bison into parser.c */\n%}\n", 0},
		{"marker beyond first KiB", "x.go", strings.Repeat("// pad\n", 200) + "// " + codeGen + " " + dne + ".\n", 0},
		// The Go convention's halves on two lines, or the wrong way round,
		// are not its marker, but a header that says both (below).
		{"halves on different lines", "x.go", "// " + codeGen + " by hand.\n// " + dne + ".\n", Generated},
		{"edit before generated", "x.go", "// " + dne + ": " + codeGen + "\n", Generated},
		{"halves apart, below code", "x.go", "package x\n\n// " + codeGen + " by hand.\n// " + dne + ".\n", 0},
		{"mentions code generation", "x.go", "// Package gen helps with " + codeGen + ".\n", 0},
		{"plain code", "x.go", "package x\n\nfunc f() {}\n", 0},
		{"minified", "app.js", strings.Repeat("a", 3000), Generated},
		{"minified with license header", "app.js", "/*! lib v1 | MIT */\n" + strings.Repeat("var a=1;", 1000), Generated},
		{"long lines but small", "app.js", longLine + "\n" + longLine, 0},
		{"long lines but many short ones", "app.js", strings.Repeat(longLine+"\n"+"x\n", 10), 0},
		{"long average lines", "data.json", strings.Repeat(longLine+"\n", 10), Generated},
		{"prose is not minified", "docs/guide.md", strings.Repeat(longLine+"\n\n", 10), Docs},
		{"text is not minified", "notes.txt", strings.Repeat("a", 5000), Docs},
		{"name and content", "x.pb.go", "// " + codeGen + ". " + dne + ".\n", Generated},
		{"test and generated", "x_test.go", "// " + codeGen + " by mockery. " + dne + ".\n", Test | Generated},
		{"empty head", "x.go", "", 0},
		// Old Mac files end their lines with a lone CR: as many lines as
		// with LF, and a marker's halves on two of them are two lines.
		{"CR line ends", "x.c", strings.Repeat("int a = 1; /* one short line of C */\r", 200), 0},
		{"CRLF line ends", "x.c", strings.Repeat("int a = 1; /* one short line of C */\r\n", 200), 0},
		{"CR minified", "app.js", strings.Repeat("a", 3000) + "\r", Generated},
		{"CR halves on different lines", "x.go", "// " + codeGen + " by hand.\r// " + dne + ".\r", Generated},
		{"CR halves below code", "x.go", "package x\r// " + codeGen + " by hand.\r// " + dne + ".\r", 0},
		{"CR marker", "x.go", "// " + codeGen + " by tool. " + dne + ".\rpackage x\r", Generated},
		// A header that says the file was generated and not to edit it,
		// in the words its tool chose; not a header that says one of the
		// two, nor such words below the file's first line of code (the
		// script that writes them).
		{"amalgamation's block comment", "single_include/lib.hpp", "/*\n *  Lib v1.4.2\n *  " + gen + ": 2021-03-09 11:22:33\n *  ----\n *  This file has been merged from multiple headers. Please don't " + edit + " it directly\n */\n#ifndef LIB_HPP\n", Generated},
		{"amalgamation's line comments", "extras/lib.cpp", "\n//  Lib v2.0.5\n//  " + gen + ": 2023-01-30\n//  This file is an amalgamation of multiple different files.\n//  You probably shouldn't " + edit + " it directly.\n#include \"lib.hpp\"\n", Generated},
		{"capitals, one line", "parser.py", "\n# encoding: utf-8\n\n# *** " + strings.ToUpper(gen) + " BY `setup.py antlr`, DO NOT " + strings.ToUpper(edit) + " BY HAND ***\nimport sys\n", Generated},
		{"the script that writes the header", "build_parser.py", "import os\n\nheader = '''\n# *** " + strings.ToUpper(gen) + " BY `setup.py antlr`, DO NOT " + strings.ToUpper(edit) + " BY HAND ***\n'''\n", 0},
		{"generated alone", "report.py", "# Reports " + gen + " each night are kept here.\nx = 1\n", 0},
		{"do not edit alone", "settings.py", "# Do not " + edit + " the values below without a review.\nx = 1\n", 0},
		// A copyright notice in the first KiB, as it is written; not a
		// word that merely holds it, nor a notice past the first KiB.
		{"notice", "dec.c", "/* Decimal arithmetic.\n * Copyright (c) IBM Corporation, 2000. All rights reserved. */\nint x;\n", Notice},
		{"notice in capitals", "x.py", "# COPYRIGHT 2020 THE AUTHORS\nx = 1\n", Notice},
		{"notice sign", "x.rs", "// © 2021 Someone\nfn a() {}\n", Notice},
		{"notice in a test", "x_test.go", "// Copyright 2020 The Go Authors.\npackage x\n", Test | Notice},
		{"no notice", "x.go", "// Package x copies things.\npackage x\n", 0},
		{"notice past the first KiB", "x.go", strings.Repeat("// x\n", 300) + "// Copyright 2020\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.path, []byte(tt.head)); got != tt.want {
				t.Errorf("Classify(%q, ...) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestClassifyLooksAtHeadSizeOnly(t *testing.T) {
	// A file with short lines for HeadSize bytes and a huge line after is
	// judged on its head.
	head := []byte(strings.Repeat("short line\n", HeadSize/11+1) + strings.Repeat("x", 1<<20))
	if got := Classify("x.js", head); got != 0 {
		t.Errorf("Classify = %q, want none", got)
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		head []byte
		want bool
	}{
		{"nil", nil, false},
		{"empty", []byte{}, false},
		{"text", []byte("package main\n"), false},
		{"utf8", []byte("héllo 世界"), false},
		{"control characters", []byte("\x1b[31mred\x1b[0m\x7f\x01"), false},
		{"nul first", []byte("\x00abc"), true},
		{"nul last in head", append(bytes.Repeat([]byte("a"), HeadSize-1), 0), true},
		{"nul after head", append(bytes.Repeat([]byte("a"), HeadSize), 0), false},
		{"utf16", []byte("\xff\xfeh\x00"), true},
	}
	for _, tt := range tests {
		if got := IsBinary(tt.head); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{0, ""},
		{Test, "test"},
		{Vendor, "vendor"},
		{Generated, "generated"},
		{Docs, "docs"},
		{Example, "example"},
		{Secret, "secret"},
		{Test | Vendor, "test,vendor"},
		{Secret | Test, "test,secret"},
		{Notice, "notice"},
		{allKinds, "test,vendor,generated,docs,example,secret,notice"},
		{1 << 7, "0x80"},
		{Docs | 1<<7, "docs,0x80"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("Kind(%#x).String() = %q, want %q", uint8(tt.k), got, tt.want)
		}
	}
}

func TestKindHas(t *testing.T) {
	k := Test | Vendor
	tests := []struct {
		f    Kind
		want bool
	}{
		{Test, true},
		{Vendor, true},
		{Test | Vendor, true},
		{Docs, false},
		{Test | Docs, false},
		{0, true},
	}
	for _, tt := range tests {
		if got := k.Has(tt.f); got != tt.want {
			t.Errorf("(%s).Has(%s) = %v, want %v", k, tt.f, got, tt.want)
		}
	}
	if Kind(0).Has(Test) {
		t.Error("zero Kind has Test")
	}
}

func FuzzClassify(f *testing.F) {
	f.Add("walk/walk_test.go", []byte("package walk\n"))
	f.Add("vendor/x/api.pb.go", []byte("// Code "+"generated. DO NOT "+"EDIT.\n"))
	f.Add("docs/README.md", []byte(strings.Repeat("x", 3000)))
	f.Add(".env.local", []byte(nil))
	f.Add("", []byte{0})
	f.Add("/a//b/./../", []byte("\n\n\n"))
	f.Add("ÄÖ/İ.GO", []byte("@"+"generated"))
	f.Fuzz(func(t *testing.T, p string, head []byte) {
		k := Classify(p, head)
		if k&^allKinds != 0 {
			t.Fatalf("Classify(%q) = %#x: undefined bits", p, uint8(k))
		}
		if k2 := Classify(p, head); k2 != k {
			t.Fatalf("Classify(%q) not deterministic: %q then %q", p, k, k2)
		}
		// Content can only add Generated.
		if pk := Classify(p, nil); k&^pk&^Generated != 0 || pk&^k != 0 {
			t.Fatalf("Classify(%q): with content %q, without %q", p, k, pk)
		}
		_ = IsBinary(head)
	})
}
