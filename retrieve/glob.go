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
