package walk

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFiles are the per-directory ignore files, in increasing priority.
var ignoreFiles = [...]string{".gitignore", ".ignore", ".honeignore"}

// vcsDirs are version-control metadata directories, never walked. A file of
// the same name (a .git file pointing at a worktree's git directory) is
// skipped as well.
var vcsDirs = map[string]bool{
	".git":   true,
	".hg":    true,
	".svn":   true,
	".bzr":   true,
	"_darcs": true,
	".jj":    true,
}

// parseIgnore parses the contents of a gitignore-syntax file found in the
// directory whose path elements, relative to the root, are domain.
func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var ps []gitignore.Pattern
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 || line[0] == '#' || len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ps = append(ps, newPattern(string(line), domain))
	}
	return ps
}

// newPattern parses one gitignore pattern with gitignore.ParsePattern and
// adjusts two of go-git's matching rules to git's:
//
//   - A pattern without a slash (other than a trailing one) is matched
//     against the final path element only. go-git matches it against every
//     element below the domain, so that "!*/" would re-include every file
//     under a directory instead of just the directory.
//   - A pattern ending in "/**" matches what is inside a directory but not the
//     directory itself, so that "dir/**" followed by "!dir/keep" works.
func newPattern(line string, domain []string) gitignore.Pattern {
	p := gitignore.ParsePattern(line, domain)
	body := strings.TrimPrefix(line, "!")
	if !strings.HasSuffix(body, `\ `) {
		body = strings.TrimRight(body, " ")
	}
	body = strings.TrimSuffix(body, "/")
	switch {
	case !strings.Contains(body, "/"):
		d := append([]string(nil), domain...)
		return &basenamePattern{inner: p, domain: d, probe: append(d[:len(d):len(d)], "")}
	case strings.HasSuffix(body, "/**"):
		return contentsPattern{p}
	}
	return p
}

// basenamePattern matches a slash-free pattern against the last element of
// paths below its domain. It is not safe for concurrent use.
type basenamePattern struct {
	inner  gitignore.Pattern
	domain []string
	probe  []string // domain plus one scratch element for the base name
}

func (b *basenamePattern) Match(path []string, isDir bool) gitignore.MatchResult {
	if len(path) <= len(b.domain) {
		return gitignore.NoMatch
	}
	for i, e := range b.domain {
		if path[i] != e {
			return gitignore.NoMatch
		}
	}
	b.probe[len(b.domain)] = path[len(path)-1]
	return b.inner.Match(b.probe, isDir)
}

// contentsPattern matches a pattern ending in "/**" only strictly inside the
// directory it names.
type contentsPattern struct {
	inner gitignore.Pattern
}

func (c contentsPattern) Match(path []string, isDir bool) gitignore.MatchResult {
	r := c.inner.Match(path, isDir)
	if r == gitignore.NoMatch || c.inner.Match(path[:len(path)-1], true) == gitignore.NoMatch {
		return gitignore.NoMatch
	}
	return r
}

// gitDir returns the git directory of the repository at root, or "" if root
// has none. It follows a .git file ("gitdir: ...") as used by submodules and
// linked worktrees, and a linked worktree's commondir, where info/ lives.
func gitDir(root string) string {
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return dotGit
	case !fi.Mode().IsRegular():
		return ""
	}
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	dir = resolve(root, strings.TrimSpace(dir))
	if common, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		dir = resolve(dir, strings.TrimSpace(string(common)))
	}
	return dir
}

// resolve interprets p relative to dir unless it is absolute.
func resolve(dir, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
