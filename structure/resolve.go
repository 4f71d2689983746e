package structure

import (
	"path"
	"slices"
	"strings"
)

// Resolve maps an import specifier written in file from (a slash path
// relative to the repository root) to the repository files it names. exists
// reports whether a slash path is a file of the repository. It returns nil for
// imports of other modules, standard libraries and anything it cannot place.
func Resolve(lang, from, spec string, exists func(string) bool) []string {
	dir := path.Dir(from)
	first := func(cands ...string) []string {
		for _, c := range cands {
			if c != "" && exists(c) {
				return []string{c}
			}
		}
		return nil
	}
	switch lang {
	case "javascript", "typescript", "vue", "svelte":
		if !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") {
			return nil
		}
		base := path.Clean(path.Join(dir, spec))
		if strings.HasPrefix(spec, "/") {
			base = strings.TrimPrefix(path.Clean(spec), "/")
		}
		var cands []string
		if path.Ext(base) != "" {
			cands = append(cands, base)
			// "./x.js" in TypeScript sources names x.ts.
			stem := strings.TrimSuffix(base, path.Ext(base))
			cands = append(cands, stem+".ts", stem+".tsx")
		}
		for _, ext := range []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte"} {
			cands = append(cands, base+ext)
		}
		for _, ext := range []string{".ts", ".tsx", ".js", ".jsx"} {
			cands = append(cands, base+"/index"+ext)
		}
		return first(cands...)
	case "python":
		mod := spec
		up := 0
		for strings.HasPrefix(mod, ".") {
			mod = mod[1:]
			up++
		}
		rel := strings.ReplaceAll(mod, ".", "/")
		var roots []string
		if up > 0 {
			d := dir
			for i := 1; i < up; i++ {
				d = path.Dir(d)
			}
			roots = []string{d}
		} else {
			// Absolute imports resolve from the repository root, or from a
			// source folder such as src/ or lib/.
			roots = []string{".", "src", "lib"}
		}
		for _, root := range roots {
			p := path.Join(root, rel)
			if rel == "" {
				p = root
			}
			if got := first(p+".py", p+"/__init__.py", p+".pyi"); got != nil {
				return got
			}
		}
		return nil
	case "go":
		// A Go import names a directory: match the longest suffix of the
		// import path that is a directory holding Go files.
		parts := strings.Split(spec, "/")
		for i := 0; i < len(parts); i++ {
			d := strings.Join(parts[i:], "/")
			if exists(d + "/") {
				return []string{d + "/"}
			}
		}
		return nil
	case "c", "cpp":
		// #include <a/b.h> is looked for on the include path, not beside
		// the file: the repository's root, include/ and src/.
		if strings.HasPrefix(spec, "<") && strings.HasSuffix(spec, ">") {
			s := path.Clean(spec[1 : len(spec)-1])
			if s == "." || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") {
				return nil
			}
			return first(s, path.Join("include", s), path.Join("src", s))
		}
		return first(path.Clean(path.Join(dir, spec)), path.Clean(spec), path.Join("include", spec), path.Join("src", spec))
	case "java", "kotlin", "scala":
		rel := strings.ReplaceAll(spec, ".", "/")
		var cands []string
		for _, root := range []string{"", "src/main/java/", "src/main/kotlin/", "src/main/scala/", "src/"} {
			for _, ext := range []string{".java", ".kt", ".scala"} {
				cands = append(cands, root+rel+ext)
			}
		}
		return first(cands...)
	case "ruby":
		base := path.Clean(path.Join(dir, spec))
		return first(base+".rb", base, path.Join("lib", spec)+".rb")
	case "rust":
		return resolveRust(from, spec, exists)
	}
	return nil
}

// resolveRust places a use path (crate::a::b::C, super::x, self::y, or
// bare: a child module, or a module at the crate's root as the 2015
// edition reads it) or a "mod x;" in the crate's module tree: the file of
// the longest leading module path that is a file, a.rs or a/mod.rs under
// the crate's root (rustCrateRoot). A path that names the crate's root
// alone (crate::Error) places nothing: the root file is a hub that every
// module reaches.
func resolveRust(from, spec string, exists func(string) bool) []string {
	segs := strings.Split(spec, "::")
	if len(segs) == 0 || segs[0] == "" {
		return nil
	}
	root, isRoot := rustCrateRoot(from, exists)
	var cur []string // the module path of from
	if !isRoot {
		cur = rustModule(root, from)
	}
	// The module paths to place, each with the length its placed prefix
	// must pass.
	type try struct {
		mod   []string
		floor int
	}
	var tries []try
	switch segs[0] {
	case "crate":
		tries = []try{{segs[1:], 0}}
	case "self":
		tries = []try{{slices.Concat(cur, segs[1:]), len(cur)}}
	case "super":
		m := cur
		for len(segs) > 0 && segs[0] == "super" {
			if len(m) == 0 {
				return nil
			}
			m, segs = m[:len(m)-1], segs[1:]
		}
		tries = []try{{slices.Concat(m, segs), len(m) - 1}}
	default:
		tries = []try{{slices.Concat(cur, segs), len(cur)}, {segs, 0}}
	}
	for _, t := range tries {
		for n := len(t.mod); n > t.floor && n > 0; n-- {
			p := rustJoin(root, t.mod[:n])
			if exists(p + ".rs") {
				return []string{p + ".rs"}
			}
			if exists(p + "/mod.rs") {
				return []string{p + "/mod.rs"}
			}
		}
	}
	return nil
}

func rustJoin(root string, mod []string) string {
	if root == "." {
		return strings.Join(mod, "/")
	}
	return root + "/" + strings.Join(mod, "/")
}

// rustCrateRoot is the folder of the crate root file that from belongs
// to, "." for the repository's root folder: from itself where it is a
// root (lib.rs, main.rs, a binary in a bin folder, or a file with no root
// above it, as an integration test, an example or build.rs are), else the
// nearest lib.rs or main.rs above it.
func rustCrateRoot(from string, exists func(string) bool) (root string, isRoot bool) {
	dir := path.Dir(from)
	if base := path.Base(from); base == "lib.rs" || base == "main.rs" || path.Base(dir) == "bin" {
		return dir, true
	}
	for d := dir; ; d = path.Dir(d) {
		for _, f := range []string{"lib.rs", "main.rs"} {
			if exists(path.Join(d, f)) {
				return d, false
			}
		}
		if d == "." || d == "/" {
			return dir, true
		}
	}
}

// rustModule is the module path of file from, not a crate's root, in the
// crate rooted at root: root/a/b.rs and root/a/b/mod.rs are a::b.
func rustModule(root, from string) []string {
	rel := strings.TrimSuffix(from, ".rs")
	if root != "." {
		rel = strings.TrimPrefix(rel, root+"/")
	}
	parts := strings.Split(rel, "/")
	if parts[len(parts)-1] == "mod" {
		return parts[:len(parts)-1]
	}
	return parts
}
