package retrieve

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// matchAny reports whether a slash path matches one of the patterns. A
// pattern is a glob ("src/**/*.ts", "*.go"), or a plain path naming a file
// or a directory ("src/auth", "src/auth/"). A glob with no slash matches
// the file name in any directory, as in .gitignore.
func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if matchOne(pat, p) {
			return true
		}
	}
	return false
}

// glob is one pattern, read once: a plain path (the path itself, or what
// lies under it), a "dir/**" (what lies under dir), or a glob as doublestar
// matches it. The zero glob matches nothing.
type glob struct {
	dir     string // of a plain path or a "dir/**"
	plain   bool   // dir itself matches too
	under   bool   // what lies under dir matches
	pattern string // a glob, for doublestar
	all     bool   // ".": the repository's root, so every file
}

func compileGlob(pat string) glob {
	if pat == "." || pat == "./" {
		return glob{all: true}
	}
	pat = strings.TrimPrefix(pat, "./")
	if pat == "" {
		return glob{}
	}
	if !strings.ContainsAny(pat, "*?[{") {
		return glob{dir: strings.TrimSuffix(pat, "/"), plain: true, under: true}
	}
	// "dir/**", the patterns refine learns: a prefix test.
	if dir, ok := strings.CutSuffix(pat, "/**"); ok && !strings.ContainsAny(dir, "*?[{") {
		return glob{dir: dir, under: true}
	}
	if !strings.Contains(pat, "/") {
		pat = "**/" + pat
	}
	return glob{pattern: pat}
}

func (g glob) match(p string) bool {
	switch {
	case g.all:
		return true
	case g.pattern != "":
		ok, err := doublestar.Match(g.pattern, p)
		return err == nil && ok
	case g.plain && p == g.dir:
		return true
	}
	return g.under && len(p) > len(g.dir) && p[len(g.dir)] == '/' && strings.HasPrefix(p, g.dir)
}

func matchOne(pat, p string) bool { return compileGlob(pat).match(p) }

// globs are patterns read once, to match many paths as matchAny does.
type globs []glob

func compileGlobs(patterns []string) globs {
	g := make(globs, len(patterns))
	for i, pat := range patterns {
		g[i] = compileGlob(pat)
	}
	return g
}

// match reports whether the slash path p matches one of the patterns.
func (g globs) match(p string) bool {
	for _, one := range g {
		if one.match(p) {
			return true
		}
	}
	return false
}
