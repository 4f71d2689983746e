package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// outlineJSON is hone outline's --json object.
type outlineJSON struct {
	Path    string          `json:"path"`
	Lang    string          `json:"lang"`
	Defs    []structure.Def `json:"defs"`
	Imports []string        `json:"imports"`
}

func cmdOutline(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("outline", flag.ContinueOnError)
	repo := fs.String("repo", "", "the repository the paths are relative to, and must lie in (default: the working directory, and any path)")
	asJSON := fs.Bool("json", false, "print JSON Lines: one compact JSON object per file, one a line")
	words, err := parseFlags(fs, args, stdout, "hone outline [--repo DIR] [--json] PATH...")
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return usagef("say which file to outline: hone outline PATH")
	}
	root := ""
	if *repo != "" {
		if root, _, err = repoRoot(*repo); err != nil {
			return err
		}
	}
	var out strings.Builder
	defer func() { writeRedacted(stdout, out.String()) }()
	enc := json.NewEncoder(&out)
	// A path that cannot be outlined stops none of the others: each is
	// outlined that can be, and those that could not be are said at the
	// end, in one line, with a non-zero exit.
	var failed []string
	for _, p := range words {
		file, name := p, p
		if root != "" {
			if file, name, err = inRepo(root, p); err != nil {
				failed = append(failed, err.Error())
				continue
			}
		}
		src, err := readOutlined(file, name)
		if err != nil {
			failed = append(failed, err.Error())
			continue
		}
		slash := filepath.ToSlash(name)
		o := structure.Extract(slash, src)
		if *asJSON {
			oj := outlineJSON{Path: slash, Lang: o.Lang, Defs: o.Defs, Imports: o.Imports}
			if oj.Defs == nil {
				oj.Defs = []structure.Def{}
			}
			if oj.Imports == nil {
				oj.Imports = []string{}
			}
			redact.Value(&oj)
			if err := enc.Encode(oj); err != nil {
				return err
			}
			continue
		}
		lang := o.Lang
		if lang == "" {
			lang = "unknown language"
		}
		fmt.Fprintf(&out, "%s (%s)\n", redact.QuotePath(slash), lang)
		if len(o.Defs) == 0 {
			fmt.Fprintln(&out, "  no definitions found")
		}
		for _, d := range o.Defs {
			depth := 0
			for c := d.Container; c != ""; c = containerOf(o.Defs, c) {
				depth++
				if depth > 8 {
					break
				}
			}
			name := d.Name
			if d.Container != "" {
				name = d.Container + "." + d.Name
			}
			fmt.Fprintf(&out, "  %5d-%-5d %-10s %s%s\n", d.Line, d.EndLine, d.Kind, strings.Repeat("  ", depth), name)
		}
	}
	outlined := len(words) - len(failed)
	switch {
	case len(failed) == 0:
		return nil
	case len(words) == 1:
		return usagef("%s", failed[0])
	case outlined == 0:
		return usagef("%s (no path was outlined)", strings.Join(failed, "; "))
	}
	others := fmt.Sprintf("the other %d paths were outlined", outlined)
	if outlined == 1 {
		others = "the other path was outlined"
	}
	return usagef("%s (%s)", strings.Join(failed, "; "), others)
}

// inRepo resolves a path given with --repo: relative to the repository,
// or absolute, it must lie in it. It returns the file's path, and its name
// relative to the repository, for the output.
func inRepo(root, p string) (file, name string, err error) {
	file = p
	if !filepath.IsAbs(p) {
		file = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, file)
	if err != nil || outside(rel) {
		return "", "", usagef("%s is outside the repository %s: give a path inside it, or leave out --repo", redact.QuotePath(p), redact.QuotePath(root))
	}
	// A link in the repository that leads out of it is outside too, as
	// the index and read_span have it.
	if real, err := filepath.EvalSymlinks(file); err == nil {
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			realRoot = root
		}
		if r, err := filepath.Rel(realRoot, real); err != nil || outside(r) {
			return "", "", usagef("%s leads out of the repository %s: give a path inside it, or leave out --repo", redact.QuotePath(p), redact.QuotePath(root))
		}
	}
	return file, rel, nil
}

// outside reports whether a path relative to a folder leaves it.
func outside(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readOutlined reads a file to outline: a regular file (not a device, a
// FIFO or a folder), no larger than the index reads, not secret-bearing by
// its name, the name a link leads to, or its contents, and not binary.
// Errors call it name.
func readOutlined(p, name string) ([]byte, error) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist) && name == "":
		return nil, usagef("an empty path names no file: give a file's path")
	case errors.Is(err, os.ErrNotExist):
		return nil, usagef("%s does not exist", redact.QuotePath(name))
	case err != nil:
		return nil, usagef("cannot read %s: %v", redact.QuotePath(name), err)
	case fi.IsDir():
		return nil, usagef("%s is a folder: give the files in it", redact.QuotePath(name))
	}
	names := []string{filepath.ToSlash(p)}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		names = append(names, filepath.ToSlash(real))
	}
	for _, n := range names {
		if walk.HasGitElement(n) {
			return nil, usagef("%s is under .git: git's own files are not the repository's code, and hone does not read them", redact.QuotePath(name))
		}
		if walk.Classify(n, nil).Has(walk.Secret) {
			return nil, usagef("%s is a secret-bearing file: hone does not read it", redact.QuotePath(name))
		}
	}
	src, err := walk.ReadRegular(p, walk.DefaultMaxFileSize)
	switch {
	case errors.Is(err, walk.ErrNotRegular):
		return nil, usagef("%s is not a regular file", redact.QuotePath(name))
	case errors.Is(err, walk.ErrTooLarge):
		return nil, usagef("%s is over the %d KiB the index reads", redact.QuotePath(name), walk.DefaultMaxFileSize>>10)
	case err != nil:
		return nil, usagef("cannot read %s: %v", redact.QuotePath(name), err)
	}
	head := src[:min(len(src), walk.HeadSize)]
	for _, n := range names {
		if walk.Classify(n, head).Has(walk.Secret) {
			return nil, usagef("%s is a secret-bearing file: hone does not read it", redact.QuotePath(name))
		}
	}
	if walk.IsBinary(head) {
		return nil, usagef("%s is a binary file", redact.QuotePath(name))
	}
	return src, nil
}

// containerOf is the container of the definition named name, for nesting.
func containerOf(defs []structure.Def, name string) string {
	for _, d := range defs {
		if d.Name == name {
			return d.Container
		}
	}
	return ""
}
