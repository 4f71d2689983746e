package walk

import (
	"bufio"
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"strings"
)

// excludesFile returns the path of the user's excludes file as git finds
// it for the repository whose git directory is gitDir: core.excludesFile
// in git's system, global and repository configuration, the last that
// sets it winning, else $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore
// when XDG_CONFIG_HOME is not set). GIT_CONFIG_NOSYSTEM, GIT_CONFIG_SYSTEM
// and GIT_CONFIG_GLOBAL have their say as in git. A configuration's
// includes are not followed. "" when there is none to read.
func excludesFile(gitDir string) string {
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
	file, set := "", false
	for _, c := range configs {
		if c == "" || c == os.DevNull {
			continue
		}
		data, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		if v, ok := configValue(data, "core", "excludesfile"); ok {
			file, set = v, true
		}
	}
	if !set {
		if xdg == "" {
			return ""
		}
		return filepath.Join(xdg, "git", "ignore")
	}
	if rest, ok := strings.CutPrefix(file, "~/"); ok && home != "" {
		file = filepath.Join(home, rest)
	}
	if file == "" || !filepath.IsAbs(file) {
		return "" // git reads a relative one from wherever it runs: no one place
	}
	return file
}

// gitBool reports whether s is one of git's spellings of true.
func gitBool(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// configValue returns the last value of key (lower case) in the section
// (lower case, no subsection) of a git configuration file, unquoted.
func configValue(data []byte, section, key string) (string, bool) {
	var value string
	found, in := false, false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				in = false
				continue
			}
			in = strings.EqualFold(strings.TrimSpace(line[1:end]), section)
			line = strings.TrimSpace(line[end+1:]) // a variable may follow on the line
		}
		if !in || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		name, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), key) {
			continue
		}
		value, found = configString(strings.TrimSpace(v)), true
	}
	return value, found
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
