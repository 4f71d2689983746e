package walk

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
func parseIgnore(data []byte, domain []string) []*rule {
	return parseIgnoreOf(data, domain, false)
}

// parseIgnoreOf is parseIgnore; own marks the rules as hone's own.
func parseIgnoreOf(data []byte, domain []string, own bool) []*rule {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var rs []*rule
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 || line[0] == '#' || len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r := newRule(string(line), domain)
		r.own = own
		rs = append(rs, r)
	}
	return rs
}

// ruleKind tells how a rule is matched.
type ruleKind uint8

const (
	// ruleBase is a pattern without a slash, matched against the final path
	// element.
	ruleBase ruleKind = iota
	// ruleSegs is a pattern with a slash but without "**", matched element
	// by element against the path below its domain.
	ruleSegs
	// ruleGeneric is a pattern with "**", matched element by element
	// against the path below its domain, "**" standing for any number of
	// elements; or one git matches as one string, not element by element
	// (wholePath: "a**/b", "a\/b", "a[!/]b"), matched against the whole
	// path below its domain.
	ruleGeneric
)

// A rule is one pattern of an ignore file. Rules are immutable once made,
// so the walker's goroutines share them.
//
// Rules match as git's do: a pattern decides an entry by the entry's own
// path below the pattern's domain, never by a folder above it. A folder
// a pattern matches is not walked, so nothing below it is listed, unless
// a later pattern takes the folder back ("a/*" then "!a/b/"): then the
// files in it are judged by their own paths, and "a/*" decides none of
// them. A pattern without a slash (other than a trailing one) matches the
// final path element at any depth; one with a slash matches the whole path
// below its domain, "**" standing for any number of elements, or, at the
// end ("dir/**"), for one or more: what is inside a folder, not the folder.
// (go-git's matcher, which hone once followed, lets a pattern that matches
// a folder match everything below it, taken back or not.)
//
// Matching is compiled per directory (see compile) so that a walk matches
// each entry against the few rules that can decide it, mostly without
// the general matcher (pattern), which matches bytes as git does.
type rule struct {
	kind    ruleKind
	exclude bool // false for a negated ("!") pattern
	// own: the rule is hone's own (.ignore, .honeignore), not git's: a
	// file it ignores is ignored though git tracks it.
	own     bool
	dirOnly bool // the pattern ends in a slash
	depth   int  // the length of the domain

	name nameMatcher   // ruleBase: the pattern
	segs []nameMatcher // ruleSegs: the pattern's non-empty elements
	glob []nameMatcher // ruleGeneric: the pattern's non-empty elements, "**" among them (globElem)
	// path: a ruleGeneric git matches as one string, not element by
	// element (wholePath); glob is then empty.
	path *pathPattern
	// above are the path elements from a folder above the walk's root,
	// whose ignore file holds a ruleGeneric, down to the root: they lead
	// every path the rule matches.
	above []string
}

// below returns the rule, found in an ignore file of a folder above the
// walk's root (or relative to the work tree's top), as it matches below
// the root, path the elements from the rule's folder down to the root;
// nil when it can match nothing there. A pattern without a slash matches
// at any depth as it is. One with a slash must match path's elements
// first: it matches nothing below the root when it does not, nor when it
// has no elements left, for it then names the root or a folder above it,
// which the walk reads all the same.
func (r *rule) below(path []string) *rule {
	c := *r
	c.depth = 0
	switch r.kind {
	case ruleSegs:
		if len(r.segs) <= len(path) {
			return nil
		}
		for i, e := range path {
			if !r.segs[i].match(e) {
				return nil
			}
		}
		c.segs = r.segs[len(path):]
	case ruleGeneric:
		c.above = slices.Concat(path, r.above)
	}
	return &c
}

// newRule parses one gitignore pattern found in the directory whose path
// elements are domain.
func newRule(line string, domain []string) *rule {
	r := &rule{exclude: true, depth: len(domain)}
	p := line
	if strings.HasPrefix(p, "!") {
		r.exclude = false
		p = p[1:]
	}
	p = trimTrailingSpaces(p)
	if strings.HasSuffix(p, "/") {
		r.dirOnly = true
		p = p[:len(p)-1]
	}
	switch {
	case !strings.Contains(p, "/"):
		r.kind = ruleBase
		r.name = newNameMatcher(p)
	case wholePath(strings.TrimPrefix(p, "/")):
		r.kind = ruleGeneric
		r.path = newPathPattern(strings.TrimPrefix(p, "/"))
	case strings.Contains("/"+strings.TrimPrefix(p, "/")+"/", "//"):
		// Without a glued "**", git matches "a//b" and "a//" as
		// written: no path has an empty element, so they match nothing
		// (a rule of no elements).
		r.kind = ruleSegs
	case strings.Contains(p, "**"):
		r.kind = ruleGeneric
		for _, s := range strings.Split(p, "/") {
			if s != "" {
				r.glob = append(r.glob, globElem(s))
			}
		}
	default:
		// The leading slash anchors the pattern and consumes no element.
		r.kind = ruleSegs
		for _, s := range strings.Split(p, "/") {
			if s != "" {
				r.segs = append(r.segs, newNameMatcher(s))
			}
		}
	}
	return r
}

// globElem compiles one element of a gitignore pattern with "**": "**"
// itself, or any longer run of stars, which git reads as "**" between
// slashes (opStars), or a name matcher, which matches the common shapes
// without the general matcher (a fifth of a warm retrieve's CPU on a tree
// of 63 repositories, each with its ignore files, went to path.Match).
func globElem(s string) nameMatcher {
	if len(s) > 1 && strings.Trim(s, "*") == "" {
		return nameMatcher{op: opStars}
	}
	return newNameMatcher(s)
}

// matchCompiled reports whether the path elements match a pattern's
// compiled elements (globElem), "**" standing for any number of them; a
// last "**" for one or more. It fills a table of which pattern suffix
// matches which path suffix, in steps of the pattern's length times the
// path's: trying each split of the path for each "**" in turn would take
// steps exponential in their number, which an ignore file chooses.
func matchCompiled(pat []nameMatcher, elems []string) bool {
	m := len(elems)
	var buf [2][32]bool
	next, cur := buf[0][:0], buf[1][:0]
	if m+1 > len(buf[0]) {
		next, cur = make([]bool, 0, m+1), make([]bool, 0, m+1)
	}
	// next[j]: the pattern's elements after the i-th match elems[j:].
	next, cur = next[:m+1], cur[:m+1]
	clear(next)
	next[m] = true
	for i := len(pat) - 1; i >= 0; i-- {
		star, last := pat[i].op == opStars, i == len(pat)-1
		for j := m; j >= 0; j-- {
			switch {
			case star && last:
				cur[j] = j < m
			case star:
				cur[j] = next[j] || j < m && cur[j+1]
			case j == m:
				cur[j] = false
			default:
				cur[j] = next[j+1] && pat[i].match(elems[j])
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// A ruleSet holds the rules in force in one directory, compiled for the
// directory's entries. It is immutable once made.
type ruleSet struct {
	// rules are the rules that can still match something in the
	// directory's subtree, lowest priority first: the rules of
	// .git/info/exclude, then those of each directory's ignore files from
	// the root down.
	rules []*rule
	// files and dirs are the checks that can decide the directory's file
	// and subdirectory entries, highest priority first; when none matches,
	// the entry is not ignored.
	files, dirs []check
	// uniform reports whether the rule set is the same in the directory's
	// subdirectories, as long as they have no ignore files of their own.
	uniform bool
	// generic reports whether some check needs the entry's path.
	generic bool
}

// check is one step of matching a directory entry.
type check struct {
	name    *nameMatcher // the entry's name must match this,
	generic *rule        // or, if not nil, its path this ruleGeneric's glob
	exclude bool         // the entry is ignored if it matches
	own     bool         // the rule is hone's own, not git's
}

// compile returns the rule set of the directory whose path elements are
// elems, given the rules in force there, lowest priority first. Their
// domains are elems or prefixes of it.
func compile(rules []*rule, elems []string) *ruleSet {
	rs := &ruleSet{
		uniform: true,
		files:   make([]check, 0, len(rules)),
		dirs:    make([]check, 0, len(rules)),
	}
	kept := make([]*rule, 0, len(rules)) // highest priority first
	add := func(c check, dirOnly bool) {
		if !dirOnly {
			rs.files = append(rs.files, c)
		}
		rs.dirs = append(rs.dirs, c)
	}
Rules:
	for i := len(rules) - 1; i >= 0; i-- {
		r := rules[i]
		switch r.kind {
		case ruleBase:
			add(check{name: &r.name, exclude: r.exclude, own: r.own}, r.dirOnly)
		case ruleGeneric:
			add(check{generic: r, exclude: r.exclude, own: r.own}, r.dirOnly)
			rs.generic = true
		case ruleSegs:
			// An entry's path below the domain has m+1 elements. A
			// pattern of k elements matches it if m+1 == k and every
			// element matches, except that a directory pattern does not
			// match a file. An entry deeper than that lies in a folder
			// the pattern matched: the walk is in it because a later
			// pattern took it back, and the pattern decides nothing here.
			m, k := len(elems)-r.depth, len(r.segs)
			if k == 0 {
				continue // matches nothing
			}
			for j := range min(m, k) {
				if !r.segs[j].match(elems[r.depth+j]) {
					continue Rules // matches nothing in this subtree
				}
			}
			if m >= k {
				continue Rules // matches nothing in this subtree
			}
			rs.uniform = false
			if m == k-1 {
				add(check{name: &r.segs[k-1], exclude: r.exclude, own: r.own}, r.dirOnly)
			}
		}
		kept = append(kept, r)
	}
	slices.Reverse(kept)
	rs.rules = kept[:len(kept):len(kept)]
	return rs
}

// ignored reports whether the entry called name of the directory whose path
// elements are elems is ignored. elems are needed only if rs.generic is
// set. scratch is reused to build the entry's path for generic checks.
func (rs *ruleSet) ignored(name string, isDir bool, elems []string, scratch *[]string) bool {
	ignored, _ := rs.decide(name, isDir, elems, scratch)
	return ignored
}

// decide is ignored, and whether the rule that decided is hone's own
// (.ignore, .honeignore) rather than git's.
func (rs *ruleSet) decide(name string, isDir bool, elems []string, scratch *[]string) (ignored, own bool) {
	checks := rs.files
	if isDir {
		checks = rs.dirs
	}
	for i := range checks {
		c := &checks[i]
		if c.generic == nil {
			if c.name.match(name) {
				return c.exclude, c.own
			}
			continue
		}
		p := append(append((*scratch)[:0], elems...), name)
		*scratch = p
		q := p[c.generic.depth:]
		if len(c.generic.above) > 0 {
			q = slices.Concat(c.generic.above, q)
		}
		if pp := c.generic.path; pp != nil && pp.match(strings.Join(q, "/")) || pp == nil && matchCompiled(c.generic.glob, q) {
			return c.exclude, c.own
		}
	}
	return false, false
}

// matchOp is how a nameMatcher matches.
type matchOp uint8

const (
	opEqual        matchOp = iota // name == s
	opPrefix                      // s*
	opSuffix                      // *s
	opContains                    // *s*
	opPrefixSuffix                // s*t
	opSuffixClass                 // *s[t]
	opGlob                        // anything else, by the general matcher (pattern)
	opStars                       // "**" in a pattern with slashes: any number of elements (matchCompiled)
)

// nameMatcher matches a file name against one path element of a pattern,
// as git does, the common simple shapes without the general matcher.
type nameMatcher struct {
	op   matchOp
	s, t string
	glob pattern
}

// newNameMatcher returns a matcher of names against the pattern p, which
// has no slash.
func newNameMatcher(p string) nameMatcher {
	const meta = `*?[\`
	plain := func(s string) bool { return !strings.ContainsAny(s, meta) }
	if plain(p) {
		return nameMatcher{op: opEqual, s: p}
	}
	if rest, ok := strings.CutPrefix(p, "*"); ok {
		if plain(rest) {
			return nameMatcher{op: opSuffix, s: rest}
		}
		if mid, ok := strings.CutSuffix(rest, "*"); ok && plain(mid) {
			return nameMatcher{op: opContains, s: mid}
		}
		// *s[t], where t is a set of letters, digits, dots and
		// underscores: ASCII characters, so that they match one byte.
		if lit, set, ok := strings.Cut(rest, "["); ok && plain(lit) && len(set) > 1 && set[len(set)-1] == ']' {
			set = set[:len(set)-1]
			if strings.IndexFunc(set, func(c rune) bool {
				return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_')
			}) < 0 {
				return nameMatcher{op: opSuffixClass, s: lit, t: set}
			}
		}
	} else if pre, suf, ok := strings.Cut(p, "*"); ok && plain(pre) && plain(suf) {
		if suf == "" {
			return nameMatcher{op: opPrefix, s: pre}
		}
		return nameMatcher{op: opPrefixSuffix, s: pre, t: suf}
	}
	return nameMatcher{op: opGlob, glob: compilePattern(p)}
}

// match reports whether name, a path element, matches.
func (m *nameMatcher) match(name string) bool {
	switch m.op {
	case opEqual:
		return name == m.s
	case opPrefix:
		return strings.HasPrefix(name, m.s)
	case opSuffix:
		return strings.HasSuffix(name, m.s)
	case opContains:
		return strings.Contains(name, m.s)
	case opPrefixSuffix:
		return len(name) >= len(m.s)+len(m.t) && strings.HasPrefix(name, m.s) && strings.HasSuffix(name, m.t)
	case opSuffixClass:
		n := len(name) - 1
		return n >= 0 && strings.IndexByte(m.t, name[n]) >= 0 && strings.HasSuffix(name[:n], m.s)
	}
	return m.glob.match(name)
}

// IsGitDir reports whether dir is a git directory itself, a bare
// repository or a work tree's .git: its files are git's, not a project's.
func IsGitDir(dir string) bool {
	for _, p := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "HEAD"))
	return err == nil && fi.Mode().IsRegular()
}

// HasGitElement reports whether a slash path has a .git element, in any
// case: git's own files (its config, logs, commit messages) are not the
// repository's code, and hone reads none of them.
func HasGitElement(slash string) bool {
	for elem := range strings.SplitSeq(slash, "/") {
		if strings.EqualFold(elem, ".git") {
			return true
		}
	}
	return false
}

// InGitDir reports whether dir is a git directory or a folder inside one
// (a .git's logs/, a bare repository's objects/), with no work tree
// nearer: a linked worktree kept inside a bare repository's folder is a
// work tree.
func InGitDir(dir string) bool {
	for {
		if IsGitDir(dir) {
			return true
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// gitDirs returns the git directories of the repository at root: its own
// (a linked worktree's .git/worktrees/NAME, which includeIf's gitdir:
// matches) and the common one (where its config and info/ live); the
// same one twice for a main work tree, "" where root has none. It follows
// a .git file ("gitdir: ...") as submodules and linked worktrees use, and
// a linked worktree's commondir.
func gitDirs(root string) (own, common string) {
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return "", ""
	case fi.IsDir():
		return dotGit, dotGit
	case !fi.Mode().IsRegular():
		return "", ""
	}
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return "", ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", ""
	}
	own = resolve(root, strings.TrimSpace(dir))
	common = own
	if c, err := os.ReadFile(filepath.Join(own, "commondir")); err == nil {
		common = resolve(own, strings.TrimSpace(string(c)))
	}
	return own, common
}

// resolve interprets p relative to dir unless it is absolute.
func resolve(dir, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// Repository is the git work tree a folder lies in, as git finds it from
// the folder: its top, its git directory (a linked worktree's own), the
// git directory that holds its shared refs, objects and configuration,
// and the folder's path below the top, slash-separated, "" at the top.
// Links in the folder's path are resolved, as git resolves its working
// directory's.
type Repository struct {
	Top, GitDir, CommonDir, Below string
}

// FindRepository finds the git work tree dir lies in, looking no higher
// than GIT_CEILING_DIRECTORIES; false where it lies in none.
func FindRepository(dir string) (Repository, bool) {
	wt, ok := findWorkTree(dir)
	if !ok {
		return Repository{}, false
	}
	return Repository{Top: wt.top, GitDir: wt.ownGitDir, CommonDir: wt.gitDir, Below: strings.Join(wt.below, "/")}, true
}

// TooBroad reports whether a folder is the user's home or the file
// system's root: what hone never indexes unless it is named. The folder
// is judged as written and as its links lead: "/tmp/..", "//" and a link
// to the root are the root.
func TooBroad(dir string) bool {
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	if filepath.Dir(dir) == dir || err == nil && filepath.Dir(real) == real {
		return true
	}
	home, herr := os.UserHomeDir()
	if herr != nil {
		return false
	}
	h, herr := filepath.EvalSymlinks(home)
	return err == nil && herr == nil && real == h
}
