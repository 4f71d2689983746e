package walk

import (
	"bufio"
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"strings"
)

// excludesFileRead returns the path of the user's excludes file as git
// finds it for the repository whose git directory is gitDir: core.excludesFile
// in git's system, global and repository configuration, the last that
// sets it winning, else $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore
// when XDG_CONFIG_HOME is not set); "" when there is none to read.
// GIT_CONFIG_NOSYSTEM, GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL have their
// say as in git, and so do a configuration's includes ([include], and
// [includeIf] on gitdir:, which matches ownGitDir, the work tree's own git
// directory: a linked worktree's .git/worktrees/NAME). It returns too the
// configuration files read to find it, those that do not exist included:
// an edit of any of them may change it.
func excludesFileRead(gitDir, ownGitDir string) (string, []string) {
	home := os.Getenv("HOME")
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var configs []string
	if !gitBool(os.Getenv("GIT_CONFIG_NOSYSTEM")) {
		configs = append(configs, cmp.Or(os.Getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	if g, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		configs = append(configs, g)
	} else {
		if xdg != "" {
			configs = append(configs, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			configs = append(configs, filepath.Join(home, ".gitconfig"))
		}
	}
	if gitDir != "" {
		configs = append(configs, filepath.Join(gitDir, "config"))
	}
	var read []string
	file, set := "", false
	for _, c := range configs {
		if c == "" || c == os.DevNull {
			continue
		}
		if v, ok := configFileValue(c, configScope{home: home, gitDir: cmp.Or(ownGitDir, gitDir), read: &read}, "core", "excludesfile"); ok {
			file, set = v, true
		}
	}
	if !set {
		if xdg == "" {
			return "", read
		}
		return filepath.Join(xdg, "git", "ignore"), read
	}
	// ~/ is the home folder; git reads a relative path from wherever it
	// runs: no one place.
	if file = (configScope{home: home}).path(file); !filepath.IsAbs(file) {
		return "", read
	}
	return file, read
}

// gitBool reports whether s is one of git's spellings of true.
func gitBool(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// maxIncludeDepth is how deep includes of configuration files go, as in
// git, which refuses deeper ones (a file that includes itself).
const maxIncludeDepth = 10

// configScope is what following a configuration file's includes needs:
// the file, for relative paths; the home folder, for ~/; the repository's
// git directory, for includeIf's gitdir: conditions; how deep the include is.
// read, if not nil, gathers the files it reads or tries to.
type configScope struct {
	file, home, gitDir string
	depth              int
	read               *[]string
}

// configFileValue is configValue of the configuration file at file, ""
// and false when it cannot be read.
func configFileValue(file string, sc configScope, section, key string) (string, bool) {
	if sc.read != nil {
		*sc.read = append(*sc.read, file)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	sc.file = file
	return configValue(data, sc, section, key)
}

// configValue returns the last value of key (lower case) in the section
// (lower case, no subsection) of a git configuration file, unquoted. An
// include's file counts where the include stands, as git reads it: an
// [include] path, or an [includeIf "gitdir:..."] path whose condition
// holds for sc.gitDir (no other condition is read, and holds). Includes
// are followed only with sc.file set.
func configValue(data []byte, sc configScope, section, key string) (string, bool) {
	var value string
	found, in, include := false, false, false
	lines := bufio.NewScanner(bytes.NewReader(data))
	lines.Buffer(make([]byte, 0, 4096), 1<<20)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				in, include = false, false
				continue
			}
			name, sub, hasSub := configSection(line[1:end])
			in = !hasSub && name == section
			include = sc.file != "" && (name == "include" && !hasSub || name == "includeif" && hasSub && sc.includeIf(sub))
			line = strings.TrimSpace(line[end+1:]) // a variable may follow on the line
		}
		if !in && !include || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		name, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch name = strings.TrimSpace(name); {
		case in && strings.EqualFold(name, key):
			value, found = configString(strings.TrimSpace(v)), true
		case include && strings.EqualFold(name, "path") && sc.depth < maxIncludeDepth:
			p := sc.path(configString(strings.TrimSpace(v)))
			if p == "" {
				continue
			}
			next := sc
			next.depth++
			if v, ok := configFileValue(p, next, section, key); ok {
				value, found = v, true
			}
		}
	}
	return value, found
}

// configSection splits a section header's inside (core, includeIf
// "gitdir:~/w/") into its name, lower case, and its subsection.
func configSection(h string) (name, sub string, hasSub bool) {
	h = strings.TrimSpace(h)
	name, rest, hasSub := strings.Cut(h, " ")
	if !hasSub {
		if n, s, ok := strings.Cut(h, "."); ok { // the old [section.sub] form
			return strings.ToLower(n), s, true
		}
		return strings.ToLower(h), "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
		rest = rest[1 : len(rest)-1]
	}
	// git takes a backslash's next character as it is, whatever it is.
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		if rest[i] == '\\' && i+1 < len(rest) {
			i++
		}
		b.WriteByte(rest[i])
	}
	return strings.ToLower(name), b.String(), true
}

// path places an include's path: ~/ in the home folder, a relative one
// beside the file that includes it.
func (sc configScope) path(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if sc.home == "" {
			return ""
		}
		return filepath.Join(sc.home, rest)
	}
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	// Joined as text, not cleaned: the system resolves a ".." after the
	// links before it, as for git.
	return filepath.Dir(sc.file) + string(filepath.Separator) + p
}

// includeIf reports whether an includeIf's condition holds: gitdir: (and
// gitdir/i:, ignoring case) matches the repository's git directory as git
// matches it, a pattern not starting with /, ~/ or ./ preceded by **/, one
// ending in / followed by **. Other conditions (onbranch:, hasconfig:)
// are not read, and do not hold.
func (sc configScope) includeIf(cond string) bool {
	pat, fold := "", false
	if p, ok := strings.CutPrefix(cond, "gitdir:"); ok {
		pat = p
	} else if p, ok := strings.CutPrefix(cond, "gitdir/i:"); ok {
		pat, fold = p, true
	} else {
		return false
	}
	if sc.gitDir == "" || pat == "" {
		return false
	}
	// A pattern of the including file's folder ("./") compares that
	// folder as it is, and matches only the rest, as git does.
	literal := ""
	switch {
	case strings.HasPrefix(pat, "~/"):
		if sc.home == "" {
			return false
		}
		pat = filepath.ToSlash(sc.home) + pat[1:]
	case strings.HasPrefix(pat, "./"):
		file := sc.file
		if real, err := filepath.EvalSymlinks(file); err == nil {
			file = real // git takes the including file's real path
		}
		literal, pat = filepath.ToSlash(filepath.Dir(file))+"/", pat[2:]
	case !strings.HasPrefix(pat, "/"):
		pat = "**/" + pat
	}
	if strings.HasSuffix(pat, "/") || pat == "" {
		pat += "**"
	}
	if fold {
		literal = lowerASCII(literal)
	}
	pp := &pathPattern{literal: literal, rest: compileFolded(pat, fold)}
	match := func(dir string) bool {
		dir = filepath.ToSlash(dir)
		if fold {
			dir = lowerASCII(dir)
		}
		return pp.match(dir)
	}
	dir := sc.gitDir
	if abs, err := filepath.Abs(sc.gitDir); err == nil {
		dir = abs
	}
	if match(dir) {
		return true
	}
	// git matches the real path as well: a temporary folder behind a link.
	if real, err := filepath.EvalSymlinks(sc.gitDir); err == nil {
		return match(real)
	}
	return false
}

// lowerASCII is s with its ASCII letters in lower case, as git folds
// case in a path: byte by byte.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// configString reads a git configuration value: quotes joined away,
// backslash escapes taken, a comment after it dropped.
func configString(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
