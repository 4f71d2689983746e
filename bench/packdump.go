package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/internal/fanout"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
)

// A pack dump keeps, for each instance, what building its context packs
// needs: the result, the gold hunks, and the files the pack may read, as
// they were at the base commit. ReplayPacks builds the packs again from
// it in seconds, without checking anything out or retrieving: the way to
// measure a change to the packing alone.

// PackDump is one instance's dump.
type PackDump struct {
	ID     string       `json:"instance_id"`
	Repo   string       `json:"repo"`
	Hunks  []Hunk       `json:"gold_hunks"`
	Result *hone.Result `json:"result"`
	// Past are the lines the result's past commits wrote in the files
	// they changed (pack.Options.PastLines); FillPast reads them for a
	// dump written without them.
	Past map[string][]string `json:"past_lines,omitempty"`
}

// dumpFiles: the ranking's first files a dump keeps, beside the result's
// files and the files they call; the pack reads no others.
const dumpFiles = 20

// dumpPack writes an instance's dump under dir: DIR/ID.json, and the
// files the pack may read under DIR/ID/.
func dumpPack(dir string, in Instance, res *hone.Result, root string, past map[string][]string) error {
	name := dumpName(in.ID)
	paths := map[string]bool{}
	for _, f := range res.Files {
		paths[f.Path] = true
	}
	for i, r := range res.Ranking {
		if i == dumpFiles {
			break
		}
		paths[r.Path] = true
	}
	for _, c := range res.Cycles {
		for _, g := range c.Gaps {
			if g.Where != "" {
				paths[g.Where] = true
			}
		}
	}
	for _, h := range in.GoldHunks {
		paths[h.Path] = true
	}
	files := filepath.Join(dir, name)
	for p := range paths {
		if s, _ := redact.String(p); s != p {
			// The dump's JSON names it redacted, and a pack reads no
			// file of that name: its copy would only keep the secret.
			continue
		}
		b, err := pack.ReadFile(root, p)
		if err != nil {
			continue // gone, or created by the fix: the pack cannot read it either
		}
		dst := filepath.Join(files, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("pack dump: %w", err)
		}
		// The copy passes the redaction, line for line, as the pack
		// that reads it again does.
		text, _ := redact.FileLines(p, string(b))
		if err := os.WriteFile(dst, []byte(text), 0o644); err != nil {
			return fmt.Errorf("pack dump: %w", err)
		}
	}
	d, err := redactedCopy(PackDump{ID: in.ID, Repo: in.Repo, Hunks: in.GoldHunks, Result: res, Past: past})
	if err != nil {
		return fmt.Errorf("pack dump: %w", err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("pack dump: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644)
}

func dumpName(id string) string {
	return strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(id)
}

// FillPast reads, for each dump that has past commits and no lines of
// theirs, the lines they wrote, from its repository under repos: dumps
// written before the packs weighed them. A dump whose repository or
// commits cannot be read keeps none, and the first such failure is
// returned with the count.
func FillPast(ctx context.Context, repos Repos, dumps []PackDump) (failed int, first error) {
	for i := range dumps {
		d := &dumps[i]
		if d.Past != nil || len(d.Result.PastCommits) == 0 {
			continue
		}
		gitDir, err := repos.GitDir(d.Repo)
		if err == nil {
			d.Past, err = history.Added(ctx, "", gitDir, d.Result.PastCommits)
		}
		if err != nil {
			failed++
			if first == nil {
				first = fmt.Errorf("%s: %w", d.ID, err)
			}
		}
	}
	return failed, first
}

// WithHunks counts the dumps that have a gold hunk in a file the base
// commit holds: those the packs' figures are shares of (a fix that only
// creates files has none a pack could hold).
func WithHunks(dumps []PackDump) int {
	n := 0
	for _, d := range dumps {
		if slices.ContainsFunc(d.Hunks, Hunk.inBase) {
			n++
		}
	}
	return n
}

// ReadPackDumps reads the dumps a run with PackDump wrote to dir.
func ReadPackDumps(dir string) ([]PackDump, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read the pack dumps: %w", err)
	}
	var out []PackDump
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var d PackDump
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("pack dump %s: %w", e.Name(), err)
		}
		if d.Result == nil {
			return nil, fmt.Errorf("pack dump %s holds no result", e.Name())
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ReplayPacks builds the packs of each dump, read from dir, at each
// budget, and scores them against the gold hunks, as a run would. If
// verbose is not nil, it lists there, for each pack that misses a hunk,
// the hunks, the result's files, what went in and what was left out;
// else the dumps are replayed side by side, a core each. weights, if not
// nil, gives the unit weights of each repository's packs (see
// pack.BuildWeighted).
func ReplayPacks(dir string, dumps []PackDump, budgets []int, count func(string) int, weights func(repo string) []float64, verbose io.Writer) ([]Row, error) {
	rows := make([]Row, len(dumps))
	one := func(i int) error {
		d := dumps[i]
		row := Row{ID: d.ID, Repo: d.Repo}
		root := filepath.Join(dir, dumpName(d.ID))
		var w []float64
		if weights != nil {
			w = weights(d.Repo)
		}
		for _, b := range budgets {
			opts := pack.Options{Budget: b, Count: count, PastLines: d.Past}
			var p *pack.Pack
			if w == nil {
				p = pack.Build(d.Result, root, opts)
			} else {
				var err error
				if p, err = pack.BuildWeighted(d.Result, root, opts, w); err != nil {
					return fmt.Errorf("%s: %w", d.ID, err)
				}
			}
			pr := packRow(p, b, d.Hunks)
			row.Packs = append(row.Packs, pr)
			if verbose != nil && pr.Held < pr.Hunks {
				fmt.Fprintf(verbose, "== %s at %d: %d of %d hunks\n", d.ID, b, pr.Held, pr.Hunks)
				for _, h := range d.Hunks {
					fmt.Fprintf(verbose, "   gold %s:%d-%d%s\n", h.Path, h.Start, h.End, heldMark(p, h))
				}
				for i, f := range d.Result.Files {
					fmt.Fprintf(verbose, "   file %d %.2f %s\n", i+1, f.Relevance, f.Path)
				}
				for _, s := range p.Included {
					fmt.Fprintf(verbose, "   in   %s\n", s)
				}
				for i, s := range p.Omitted {
					if i == 12 {
						break
					}
					fmt.Fprintf(verbose, "   out  %s\n", s)
				}
			}
		}
		rows[i] = row
		return nil
	}
	if verbose != nil {
		for i := range dumps {
			if err := one(i); err != nil {
				return nil, err
			}
		}
		return rows, nil
	}
	// The first error is the answer: a wrong weight fails every dump
	// alike.
	for _, err := range fanout.Each(context.Background(), make(chan struct{}, runtime.NumCPU()), len(dumps), one) {
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

func heldMark(p *pack.Pack, h Hunk) string {
	if packRow(p, 0, []Hunk{h}).Held == 1 {
		return "  held"
	}
	if slices.ContainsFunc(p.Ranges, func(r pack.Range) bool { return r.Path == h.Path }) {
		return "  file in pack, hunk not"
	}
	return "  file not in pack"
}
