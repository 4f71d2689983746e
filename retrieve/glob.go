package retrieve

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// matchAny reports whether a slash path matches one of the patterns. A
// pattern reads as a line of a .gitignore does: a glob ("src/**/*.ts",
// "*.go") or a plain name or path ("src/auth", "migrations"); one with no
// slash but at its end matches a name at any depth ("*.ts", "migrations"),
// one with a slash before its end, or a leading one, is a path from the
// repository's root ("src/auth", "/vendor"); one that ends in a slash
// matches directories alone; and a pattern that matches a directory
// matches everything under it ("**/migrations", "migrations/").
func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if matchOne(pat, p) {
			return true
		}
	}
	return false
}

// glob is one pattern, read once. The zero glob matches nothing.
type glob struct {
	all      bool   // ".": the repository's root, so every file
	name     string // a pattern with no glob characters: a name or a path
	glob     string // a glob, for doublestar
	anyDepth bool   // no slash: it matches one name, at any depth
	dirOnly  bool   // it ended in a slash: directories alone
	under    bool   // "dir/**": what lies under name, a prefix test
	segs     int    // a path glob with no **: how many names it matches, 0 otherwise
	// A name glob of one star and a literal ("*.ts", "test_*"): the
	// literal the name ends or begins with, for a test without doublestar.
	suffix, prefix string
}

func compileGlob(pat string) glob {
	if pat == "." || pat == "./" || pat == "/" {
		return glob{all: true}
	}
	// A leading ./ or / is the repository's root.
	anchored := strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "/")
	pat = strings.TrimPrefix(pat, "./")
	pat = strings.TrimPrefix(pat, "/")
	dirOnly := strings.HasSuffix(pat, "/")
	pat = strings.TrimRight(pat, "/")
	anchored = anchored || strings.Contains(pat, "/")
	// "dir/**" is what lies under dir, as "dir/" is.
	if rest, ok := strings.CutSuffix(pat, "/**"); ok && rest != "" {
		pat, dirOnly = rest, true
	}
	if pat == "" {
		return glob{}
	}
	g := glob{dirOnly: dirOnly, anyDepth: !anchored}
	if !strings.ContainsAny(pat, "*?[{\\") {
		g.name = pat
		// "dir/**", the patterns refine learns: a prefix test.
		g.under = anchored && dirOnly
		return g
	}
	g.glob = pat
	if g.anyDepth && strings.Count(pat, "*") == 1 && !strings.ContainsAny(pat, "?[{\\") {
		if rest, ok := strings.CutPrefix(pat, "*"); ok {
			g.suffix = rest
		} else if rest, ok := strings.CutSuffix(pat, "*"); ok {
			g.prefix = rest
		}
	}
	if !g.anyDepth && !strings.ContainsAny(pat, "{[") && !strings.Contains(pat, "**") { // braces and brackets may hold slashes
		g.segs = strings.Count(pat, "/") + 1
	}
	return g
}

func (g glob) match(p string) bool {
	switch {
	case g.all:
		return true
	case g.under:
		return len(p) > len(g.name) && p[len(g.name)] == '/' && strings.HasPrefix(p, g.name)
	case g.name == "" && g.glob == "":
		return false
	case g.anyDepth:
		// One name: each of the path's, its directories' and (unless
		// directories alone) its own.
		for rest := p; ; {
			c, after, more := strings.Cut(rest, "/")
			if (more || !g.dirOnly) && g.matchName(c) {
				return true
			}
			if !more {
				return false
			}
			rest = after
		}
	}
	// A path from the root: the path itself (unless directories alone),
	// or one of its directories; a glob of so many names, with no **,
	// only the one of as many.
	if g.segs > 0 {
		i, n := 0, 1
		for ; i < len(p); i++ {
			if p[i] == '/' {
				if n == g.segs {
					return g.matchPath(p[:i])
				}
				n++
			}
		}
		return n == g.segs && !g.dirOnly && g.matchPath(p)
	}
	if !g.dirOnly && g.matchPath(p) {
		return true
	}
	for i := strings.IndexByte(p, '/'); i >= 0; {
		if g.matchPath(p[:i]) {
			return true
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func (g glob) matchName(c string) bool {
	switch {
	case g.glob == "":
		return c == g.name
	case g.suffix != "":
		return strings.HasSuffix(c, g.suffix)
	case g.prefix != "":
		return strings.HasPrefix(c, g.prefix)
	}
	ok, err := doublestar.Match(g.glob, c)
	return err == nil && ok
}

func (g glob) matchPath(p string) bool {
	if g.glob == "" {
		return p == g.name
	}
	ok, err := doublestar.Match(g.glob, p)
	return err == nil && ok
}

func matchOne(pat, p string) bool { return compileGlob(pat).match(p) }

// inRepository makes the patterns that are absolute paths into the
// repository at root (its own, as the index has it) paths from its root:
// --exclude /home/me/repo/src/x.py is /src/x.py. Others are as they are.
func inRepository(root string, patterns []string) []string {
	var out []string
	for i, p := range patterns {
		fp := filepath.FromSlash(p)
		if !filepath.IsAbs(fp) || root == "" {
			continue
		}
		rel, err := filepath.Rel(root, fp)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == "." && fp != root {
			continue
		}
		if out == nil {
			out = slices.Clone(patterns)
		}
		if rel == "." {
			out[i] = "."
		} else {
			out[i] = "/" + filepath.ToSlash(rel)
		}
	}
	if out == nil {
		return patterns
	}
	return out
}

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
