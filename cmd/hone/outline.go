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
	asJSON := fs.Bool("json", false, "print one JSON object per file")
	words, err := parseFlags(fs, args, stdout, "hone outline [--json] PATH...")
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return usagef("say which file to outline: hone outline PATH")
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	for _, p := range words {
		src, err := os.ReadFile(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return usagef("%s does not exist", p)
		case err != nil:
			return usagef("cannot read %s: %v", p, err)
		}
		slash := filepath.ToSlash(p)
		if walk.Classify(slash, src[:min(len(src), walk.HeadSize)]).Has(walk.Secret) {
			return usagef("%s is a secret-bearing file: hone does not read it", p)
		}
		if walk.IsBinary(src[:min(len(src), walk.HeadSize)]) {
			return usagef("%s is a binary file", p)
		}
		o := structure.Extract(slash, src)
		if *asJSON {
			out := outlineJSON{Path: slash, Lang: o.Lang, Defs: o.Defs, Imports: o.Imports}
			if out.Defs == nil {
				out.Defs = []structure.Def{}
			}
			if out.Imports == nil {
				out.Imports = []string{}
			}
			if err := enc.Encode(out); err != nil {
				return err
			}
			continue
		}
		lang := o.Lang
		if lang == "" {
			lang = "unknown language"
		}
		fmt.Fprintf(stdout, "%s (%s)\n", slash, lang)
		if len(o.Defs) == 0 {
			fmt.Fprintln(stdout, "  no definitions found")
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
			fmt.Fprintf(stdout, "  %5d-%-5d %-10s %s%s\n", d.Line, d.EndLine, d.Kind, strings.Repeat("  ", depth), name)
		}
	}
	return nil
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
