package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"strings"

	"github.com/hone-tools/hone/bench"
)

const benchUsage = `hone bench index --git-dir DIR --rev REV [--rev2 REV] [--tasks FILE] [--tasks-repo NAME]
                 [--limit N] [--runs N] [--peer "CMD {out} {repo}"] [--json]`

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "index" {
		return usagef("usage: %s", benchUsage)
	}
	fs := flag.NewFlagSet("bench index", flag.ContinueOnError)
	gitDir := fs.String("git-dir", "", "git directory (a bare mirror will do) holding the revisions")
	rev := fs.String("rev", "", "revision to index")
	rev2 := fs.String("rev2", "", "a revision some files away, to time an incremental update")
	tasks := fs.String("tasks", "", "tasks to time: JSON lines with problem_statement, or one task per line")
	tasksRepo := fs.String("tasks-repo", "", "only the JSON tasks whose repo is NAME")
	limit := fs.Int("limit", 20, "tasks to time at most")
	runs := fs.Int("runs", 3, "times each measure is taken (medians are reported)")
	peer := fs.String("peer", "", "a peer indexer to time side by side, e.g. \"zoekt-index -index {out} {repo}\"")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	words, err := parseFlags(fs, args[1:], stdout, benchUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *gitDir == "" || *rev == "" {
		return usagef("usage: %s", benchUsage)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cfg := bench.IndexConfig{GitDir: *gitDir, Rev: *rev, Rev2: *rev2, Exe: exe, Runs: *runs, Peer: strings.TrimSpace(*peer), Log: stderr}
	if *tasks != "" {
		if cfg.Tasks, err = bench.ReadTasks(*tasks, *tasksRepo, *limit); err != nil {
			return usagef("cannot read the tasks: %v", err)
		}
	}
	rep, err := bench.IndexBench(ctx, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.Print(stdout)
	return nil
}
