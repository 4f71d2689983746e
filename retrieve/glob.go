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

// globs are patterns made ready to match many paths, as matchAny matches
// them: a plain path or a "dir/**" is a prefix test, made once.
type globs struct {
	exact    []string // plain paths: the path itself
	prefixes []string // "dir/": what lies under it
	rest     []string // globs, as doublestar matches them
}

func compileGlobs(patterns []string) *globs {
	g := &globs{}
	for _, pat := range patterns {
		pat = strings.TrimPrefix(pat, "./")
		switch {
		case pat == "":
		case !strings.ContainsAny(pat, "*?[{"):
			dir := strings.TrimSuffix(pat, "/")
			g.exact = append(g.exact, dir)
			g.prefixes = append(g.prefixes, dir+"/")
		default:
			if dir, ok := strings.CutSuffix(pat, "/**"); ok && !strings.ContainsAny(dir, "*?[{") {
				g.prefixes = append(g.prefixes, dir+"/")
				continue
			}
			if !strings.Contains(pat, "/") {
				pat = "**/" + pat
			}
			g.rest = append(g.rest, pat)
		}
	}
	return g
}

// match reports whether the slash path p matches one of the patterns.
func (g *globs) match(p string) bool {
	for _, e := range g.exact {
		if p == e {
			return true
		}
	}
	for _, pre := range g.prefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	for _, pat := range g.rest {
		if ok, err := doublestar.Match(pat, p); err == nil && ok {
			return true
		}
	}
	return false
}

func matchOne(pat, p string) bool {
	pat = strings.TrimPrefix(pat, "./")
	if pat == "" {
		return false
	}
	if !strings.ContainsAny(pat, "*?[{") {
		dir := strings.TrimSuffix(pat, "/")
		return p == dir || strings.HasPrefix(p, dir+"/")
	}
	// "dir/**", the patterns refine learns: a prefix test.
	if dir, ok := strings.CutSuffix(pat, "/**"); ok && !strings.ContainsAny(dir, "*?[{") {
		return strings.HasPrefix(p, dir+"/")
	}
	if !strings.Contains(pat, "/") {
		pat = "**/" + pat
	}
	ok, err := doublestar.Match(pat, p)
	return err == nil && ok
}
