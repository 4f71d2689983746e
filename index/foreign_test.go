package index

import "testing"

// Another project's code, with its notice, kept under a folder with its
// own licence is foreign; a monorepo's package, with its manifest beside
// its licence, is not, nor is a file with no notice, anything below the
// root's licence alone, a documentation page named for licences, or code
// named for them.
func TestForeign(t *testing.T) {
	files := map[string]string{
		"LICENSE":                       "MIT\n",
		"src/main.c":                    "/* Copyright 2020 Main */\nint main() { return 0; }\n",
		"src/decimal/ICU-license.html":  "<p>ICU License</p>\n",
		"src/decimal/dec.c":             "/* Copyright (c) IBM Corporation */\nint dec;\n",
		"src/decimal/inner/more.c":      "/* Copyright (c) IBM Corporation */\nint more;\n",
		"src/decimal/glue.c":            "int glue;\n",
		"lib/zlib/COPYING.txt":          "zlib\n",
		"lib/zlib/sub/pkg/setup.py":     "x = 1\n",
		"lib/zlib/sub/pkg/mod.py":       "# Copyright 2020 Someone\ny = 1\n",
		"lib/zlib/deflate.c":            "/* Copyright (C) 1995 Jean-loup Gailly */\nint deflate;\n",
		"packages/core/LICENSE":         "MIT\n",
		"packages/core/package.json":    "{}\n",
		"packages/core/src/index.js":    "// Copyright 2020 Core\nexport const a = 1\n",
		"docs/license.md":               "# License\n",
		"docs/guide/intro.md":           "# Intro\n",
		"internal/license/license.go":   "package license\n",
		"internal/license/detect.go":    "package license\n",
		"crates/tool/LICENSE-MIT":       "MIT\n",
		"crates/tool/Cargo.toml":        "[package]\n",
		"crates/tool/src/lib.rs":        "fn a() {}\n",
		"third/mylib/src/x/licensing.c": "int l;\n",
	}
	ix := build(t, files)
	defer ix.Close()
	for p, want := range map[string]bool{
		"src/main.c":                    false,
		"src/decimal/dec.c":             true,
		"src/decimal/inner/more.c":      true,
		"src/decimal/glue.c":            false, // no notice of its own: the project's
		"lib/zlib/deflate.c":            true,
		"lib/zlib/sub/pkg/mod.py":       false, // a package's manifest between
		"packages/core/src/index.js":    false,
		"docs/guide/intro.md":           false,
		"internal/license/detect.go":    false,
		"crates/tool/src/lib.rs":        false,
		"third/mylib/src/x/licensing.c": false,
	} {
		if got := ix.Foreign(ix.Entry(p)); got != want {
			t.Errorf("Foreign(%s) = %v, want %v", p, got, want)
		}
	}
	if ix.Foreign(nil) {
		t.Error("Foreign(nil) = true")
	}
}

// A repository with no licence below its root has nothing foreign.
func TestForeignNone(t *testing.T) {
	ix := build(t, map[string]string{"LICENSE": "MIT\n", "a/b.go": "package a\n"})
	defer ix.Close()
	if ix.Foreign(ix.Entry("a/b.go")) {
		t.Error("Foreign(a/b.go) = true under the root's licence alone")
	}
}

func TestLicenceFile(t *testing.T) {
	for name, want := range map[string]bool{
		"license": true, "licence.txt": true, "copying": true, "copying.lesser": true, "license-mit": true,
		"icu-license.html": true, "zlib_license.txt": true, "unlicense": true, "copyright": true,
		"licensing.c": false, "mylicense.txt": false, "readme.md": false, "sublicense.go": false,
	} {
		if got := licenceFile(name); got != want {
			t.Errorf("licenceFile(%q) = %v, want %v", name, got, want)
		}
	}
}
