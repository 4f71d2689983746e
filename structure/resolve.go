package structure

import (
	"path"
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
		name := strings.TrimPrefix(strings.TrimPrefix(spec, "crate::"), "self::")
		name = strings.TrimPrefix(name, "super::")
		seg := strings.Split(name, "::")[0]
		return first(path.Join(dir, seg+".rs"), path.Join(dir, seg, "mod.rs"), path.Join("src", seg+".rs"), path.Join("src", seg, "mod.rs"))
	}
	return nil
}
