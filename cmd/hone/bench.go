package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/bench"
	"github.com/hone-tools/hone/internal/rankmodel"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
)

const benchUsage = `hone bench index --git-dir DIR --rev REV [--rev2 REV] [--tasks FILE] [--tasks-repo NAME]
                 [--limit N] [--runs N] [--peer "CMD {out} {repo}"] [--json]`

const sweUsage = `hone bench --data FILE.jsonl --repos DIR [--map FILE] [--limit N] [--every N] [--repo NAME]
           [--out ROWS.jsonl] [--work DIR] [--signals FILE.jsonl] [--pack-budget N,...]
           [--pack-dump DIR]`

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "index" {
		return cmdBenchIndex(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "fit" {
		return cmdBenchFit(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "calibrate" {
		return cmdBenchCalibrate(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "report" {
		return cmdBenchReport(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "compare" {
		return cmdBenchCompare(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "mine" {
		return cmdBenchMine(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "words" {
		return cmdBenchWords(ctx, args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "vocab" {
		return cmdBenchVocab(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "hunks" {
		return cmdBenchHunks(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "packs" {
		return cmdBenchPacks(args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "glossary" {
		return cmdBenchGlossary(args[1:], stdout)
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	data := fs.String("data", "", "benchmark instances: JSON lines with instance_id, repo, base_commit, problem_statement, gold_files")
	repos := fs.String("repos", "", "directory holding a full-history git directory of each repository")
	mapping := fs.String("map", "", "file of \"owner/name = path\" lines, where a repository lives under --repos")
	limit := fs.Int("limit", 0, "run the first N instances only")
	every := fs.Int("every", 1, "run every Nth instance: a fixed subset (5 gives the quick 60 of SWE-bench Lite)")
	only := fs.String("repo", "", "run only the instances of this repository")
	out := fs.String("out", "", "write per-instance rows to this JSON-lines file")
	work := fs.String("work", "", "keep work trees and indexes here between runs (default: a temporary directory)")
	maxCycles := fs.Int("max-cycles", hone.DefaultMaxCycles, "cycles of the loop at most (1-10)")
	baseline := fs.Bool("bm25", false, "rank with plain BM25 over the task's words instead of the loop: the baseline")
	signals := fs.String("signals", "", "write each instance's ranked files with their signals to this JSON-lines file, for hone bench fit")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file, for go tool pprof")
	var ef evalFlags
	ef.register(fs)
	var bf backendFlags
	bf.register(fs)
	fs.Lookup("backend").Usage = "where to search: index (an embedded index of each instance's checkout, the default) or zoekt (a zoekt-webserver's JSON API; see --zoekt-url and --zoekt-index-cmd) ($HONE_BACKEND)"
	zoektIndex := fs.String("zoekt-index-cmd", "", "with --backend zoekt: the command that indexes each instance's work tree into the shards the webserver serves, {tree} standing for the tree, e.g. \"zoekt-index -index /tmp/shards {tree}\"")
	packBudgets := fs.String("pack-budget", "", "build each result's context pack at these budgets in tokens, comma-separated (2000,4000,8000,16000), and measure how they hold the gold hunks")
	packDump := fs.String("pack-dump", "", "with --pack-budget: keep each result and the files its pack reads in this folder, for hone bench packs")
	words, err := parseFlags(fs, args, stdout, sweUsage+"\n   or: "+benchUsage)
	if err != nil {
		return err
	}
	const subcommands = "index, fit, calibrate, report, compare, mine, words, vocab, hunks, packs or glossary"
	switch {
	case len(words) > 0 && len(args) > 0 && args[0] == words[0]:
		return usagef("unknown bench command %q: use %s, or --data and --repos to run a benchmark (\"hone help bench\" shows each)", redact.Line(words[0]), subcommands)
	case len(words) > 0:
		return usagef("hone bench takes no arguments but its flags, not %q (\"hone help bench\" shows them)", redact.Line(words[0]))
	case isSet(fs, "zoekt-index-cmd") && bf.kind != "zoekt":
		return usagef("--zoekt-index-cmd is for a zoekt cluster: give --backend zoekt (or HONE_BACKEND=zoekt), or leave --zoekt-index-cmd out")
	case *data == "" || *repos == "":
		return usagef("hone bench needs --data FILE.jsonl and --repos DIR, or a command: %s (\"hone help bench\" shows each)", subcommands)
	}
	budgets, err := parseBudgets(*packBudgets)
	if err != nil {
		return err
	}
	if *packDump != "" && len(budgets) == 0 {
		return usagef("--pack-dump keeps what the packs of --pack-budget read: give --pack-budget too")
	}
	ins, err := bench.ReadInstances(*data)
	if err != nil {
		return usagef("cannot read the benchmark: %v", err)
	}
	if *only != "" {
		var keep []bench.Instance
		for _, in := range ins {
			if in.Repo == *only {
				keep = append(keep, in)
			}
		}
		ins = keep
	}
	ins = bench.Every(ins, *every)
	if *limit > 0 && len(ins) > *limit {
		ins = ins[:*limit]
	}
	if len(ins) == 0 {
		return usagef("no instance to run")
	}
	r, err := readRepos(*repos, *mapping)
	if err != nil {
		return err
	}
	cfg := bench.SWEConfig{Instances: ins, Repos: r, Work: *work, Log: stderr, CountTokens: pack.CountTokens,
		Options: hone.Options{MaxCycles: *maxCycles}, Baseline: *baseline}
	cfg.PackBudgets = budgets
	cfg.PackDump = *packDump
	model, err := ef.open(notifier(stderr))
	if err != nil {
		return err
	}
	if model != nil {
		cfg.NewEvaluator = func() hone.Evaluator { return model.ForRun() }
	}
	zc, err := bf.open()
	if err != nil {
		return err
	}
	if zc != nil {
		if *zoektIndex == "" {
			return usagef("--backend zoekt in bench needs --zoekt-index-cmd, which indexes each instance's tree for the webserver, e.g. \"zoekt-index -index /tmp/shards {tree}\"")
		}
		cfg.Zoekt = &bench.ZoektBench{URL: zc.URL, IndexCmd: *zoektIndex}
	}
	for _, o := range []struct {
		path, what string
		to         *io.Writer
	}{{*out, "rows", &cfg.Out}, {*signals, "signals", &cfg.Signals}} {
		if o.path == "" {
			continue
		}
		f, err := os.Create(o.path)
		if err != nil {
			return usagef("cannot write the %s: %v", o.what, err)
		}
		defer f.Close()
		*o.to = f
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return usagef("cannot write the CPU profile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("start the CPU profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	rows, err := bench.RunSWE(ctx, cfg)
	if len(rows) > 0 {
		printRows(stdout, rows)
	}
	return err
}

// printRows prints a run's figures: the summary, calibration and misses.
func printRows(stdout io.Writer, rows []bench.Row) {
	bench.PrintSummary(stdout, rows)
	bench.PrintPacks(stdout, rows)
	bench.PrintTests(stdout, rows)
	bench.PrintModel(stdout, rows)
	fmt.Fprintln(stdout)
	bench.PrintCalibration(stdout, rows)
	fmt.Fprintln(stdout)
	bench.PrintMisses(stdout, rows)
	bench.PrintTimings(stdout, rows)
}

func cmdBenchIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	words, err := parseFlags(fs, args, stdout, benchUsage)
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

// commandLine writes a command as a shell would read it back: the
// arguments that hold spaces or quotes quoted.
func commandLine(name string, args []string) string {
	for _, a := range args {
		if strings.ContainsAny(a, " '\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		name += " " + a
	}
	return name
}

// readSignals reads a file of signal rows, which must have the signals of
// the rows read before, if any.
func readSignals(p string, before []bench.SignalRow) ([]bench.SignalRow, error) {
	r, err := bench.ReadSignals(p)
	if err != nil {
		return nil, usagef("cannot read the signals: %v", err)
	}
	if len(before) > 0 && len(r) > 0 && !slices.Equal(before[0].Names, r[0].Names) {
		return nil, usagef("%s has other signals than the files before it: write them all with one build of hone", p)
	}
	return r, nil
}

const calibrateUsage = `hone bench calibrate --signals NAME=FILE.jsonl[,NAME=FILE.jsonl...] [--languages LANG,...] [--l2 X] [--write MODEL.json]`

// cmdBenchCalibrate fits the calibration that turns a file's ranking
// score into its relevance, on the signal rows of several sets at once,
// and reports it per set under leave-one-repository-out cross-validation.
func cmdBenchCalibrate(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench calibrate", flag.ContinueOnError)
	signals := fs.String("signals", "", "the sets' signal rows written by hone bench --signals, each as NAME=FILE, comma-separated")
	l2 := fs.Float64("l2", 1e-3, "ridge penalty on the weights")
	write := fs.String("write", "", "write the calibration into this model file (internal/rankmodel/model.json is the one hone ranks with), keeping its ranking weights")
	languages := fs.String("languages", "", "calibrate the model's weight set for these languages (as hone bench fit --languages wrote it), on the rows of repositories in them alone")
	words, err := parseFlags(fs, args, stdout, calibrateUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *signals == "" {
		return usagef("usage: %s", calibrateUsage)
	}
	whole := rankmodel.Default()
	if *write != "" {
		b, err := os.ReadFile(*write)
		if err != nil {
			return usagef("cannot read the model to write the calibration into: %v", err)
		}
		if whole, err = rankmodel.Parse(b); err != nil {
			return usagef("%s: %v", *write, err)
		}
	}
	model := whole
	var langs []string
	if *languages != "" {
		langs = splitLanguages(*languages)
		if model = whole.SetFor(langs); model == nil {
			return usagef("the model has no weight set for %s: fit one with hone bench fit --languages %s --write", *languages, *languages)
		}
	}
	sets := map[string][]bench.SignalRow{}
	var order, data []string
	var all []bench.SignalRow
	for _, part := range strings.Split(*signals, ",") {
		name, p, ok := strings.Cut(part, "=")
		if !ok || name == "" || p == "" {
			return usagef("name each set's signals as NAME=FILE, not %q", part)
		}
		r, err := readSignals(p, all)
		if err != nil {
			return err
		}
		if langs != nil {
			if r, err = bench.InLanguages(r, langs); err != nil {
				return usagef("%v", err)
			}
		}
		all = append(all, r...)
		if len(r) == 0 {
			return usagef("no signal rows in %s", p)
		}
		if _, dup := sets[name]; dup {
			return usagef("the set %q is named twice", name)
		}
		sets[name] = r
		order = append(order, name)
		data = append(data, fmt.Sprintf("%s: %d instances", name, len(r)))
	}
	w, err := model.Vector(sets[order[0]][0].Names)
	if err != nil {
		return usagef("%v: write the signals with this build of hone", err)
	}
	m := bench.Ranker{W: w, Temp: model.Temperature}
	cal := bench.PrintCalibrationFit(stdout, sets, order, m, *l2, bench.SetRules(hone.DefaultThreshold, hone.DefaultMaxFiles))
	if *write != "" {
		c := &rankmodel.Calibration{Data: data, Command: commandLine("hone bench calibrate", args), Weights: map[string]float64{}}
		for i, n := range rankmodel.CalibrationNames(sets[order[0]][0].Names) {
			if cal[i] != 0 {
				c.Weights[n] = bench.Sig4(cal[i])
			}
		}
		model.Calibration = c
		if err := whole.Write(*write); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nwrote the calibration to %s: rebuild hone to use it\n", *write)
	}
	return nil
}

const fitUsage = `hone bench fit --signals FILE.jsonl[,FILE.jsonl...] [--languages LANG,... [--prior MODEL.json]] [--drop NAME,...] [--only NAME,... --prior MODEL.json] [--l2 X] [--iters N] [--rows FILE.jsonl] [--write MODEL.json --data "WHAT"]`

// cmdBenchFit fits the ranking's weights on the signals a benchmark run
// wrote, and reports them under leave-one-repository-out cross-validation.
func cmdBenchFit(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench fit", flag.ContinueOnError)
	signals := fs.String("signals", "", "signal rows written by hone bench --signals; several files, comma-separated, are fit together")
	l2 := fs.Float64("l2", 1e-3, "ridge penalty on the weights")
	iters := fs.Int("iters", 1500, "gradient steps")
	drop := fs.String("drop", "", "comma-separated signals to leave out of the fit (their weight is 0)")
	write := fs.String("write", "", "write the fit as the ranking's model to this file (internal/rankmodel/model.json is the one hone ranks with), its header recording the data, the commit, the command and the held-out figures")
	data := fs.String("data", "", "with --write: what the signals came from, e.g. \"SWE-bench Lite, all 300 instances\"")
	rowsOut := fs.String("rows", "", "write the cross-validation's rows, each instance ranked by weights that never saw its repository, to this JSON-lines file (for hone bench report and compare)")
	languages := fs.String("languages", "", "fit a weight set of its own for repositories whose main language is one of these (comma-separated, as hone names them: c,cpp,go,java,javascript,rust,typescript,...), on their rows alone; --write puts it among the model's sets, keeping the rest of the model")
	prior := fs.String("prior", "", "pull the weights toward this model's own weights, and start from them, rather than toward 0 (internal/rankmodel/model.json is the shipped model): a set fit on less data departs from them only where its data says so")
	only := fs.String("only", "", "fit these signals' weights alone (comma-separated), every other weight held at the prior's: with --languages, at the weights of the prior's set for those languages where it has one. For a signal new or redefined, without fitting the rest again")
	words, err := parseFlags(fs, args, stdout, fitUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *signals == "" {
		return usagef("usage: %s", fitUsage)
	}
	if *write != "" && *data == "" {
		return usagef("say with --data what the signals came from: the model's header records it")
	}
	if *only != "" && *prior == "" {
		return usagef("--only holds the other weights at a model's: name it with --prior (internal/rankmodel/model.json is the shipped model)")
	}
	var rows []bench.SignalRow
	for _, p := range strings.Split(*signals, ",") {
		r, err := readSignals(p, rows)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	var langs []string
	if *languages != "" {
		if langs = splitLanguages(*languages); len(langs) == 0 {
			return usagef("--languages names no language")
		}
		if rows, err = bench.InLanguages(rows, langs); err != nil {
			return usagef("%v", err)
		}
	}
	if len(rows) == 0 {
		return usagef("no signal rows in %s", *signals)
	}
	var dropped []int
	if *drop != "" {
		if dropped, err = bench.DropSignals(rows, strings.Split(*drop, ",")); err != nil {
			return usagef("%v", err)
		}
	}
	var out *os.File
	if *rowsOut != "" {
		// Created first: a path that cannot be written fails before the fit.
		if out, err = os.Create(*rowsOut); err != nil {
			return usagef("cannot write the rows: %v", err)
		}
		defer out.Close()
	}
	cfg := bench.FitConfig{L2: *l2, Iters: *iters}
	if *prior != "" {
		b, err := os.ReadFile(*prior)
		if err != nil {
			return usagef("cannot read the prior model: %v", err)
		}
		pm, err := rankmodel.Parse(b)
		if err != nil {
			return usagef("%s: %v", *prior, err)
		}
		from := pm
		if set := pm.SetFor(langs); *only != "" && langs != nil && set != nil {
			from = set
		}
		if cfg.Prior, err = from.Vector(rows[0].Names); err != nil {
			return usagef("%s: %v: write the signals with this build of hone", *prior, err)
		}
		if *only != "" {
			cfg.Temp = from.Temperature
		}
		// A signal left out of the fit weighs 0, whatever the prior says.
		for _, i := range dropped {
			cfg.Prior[i] = 0
		}
	}
	if *only != "" {
		free, err := bench.SignalIndexes(rows, strings.Split(*only, ","))
		if err != nil {
			return usagef("%v", err)
		}
		cfg.Free = make([]bool, len(rows[0].Names))
		for _, i := range free {
			cfg.Free[i] = !slices.Contains(dropped, i)
		}
	}
	fit, cv := bench.PrintFit(stdout, rows, cfg)
	if *write != "" && *only != "" {
		m := bench.Model(rows[0].Names, fit, cv)
		if err := onlyIntoModel(*write, m, strings.Split(*only, ","), langs, *data, commandLine("hone bench fit", args)); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nwrote the weights of %s to %s, the rest of it as it was: rebuild hone to rank with it\n", *only, *write)
	} else if *write != "" {
		m := bench.Model(rows[0].Names, fit, cv)
		m.Data = []string{*data}
		m.Commit = buildRevision()
		m.Command = commandLine("hone bench fit", args)
		if *drop != "" {
			m.Notes = "signals left out of the fit: " + *drop
		}
		if m, err = intoModel(*write, m, langs); err != nil {
			return err
		}
		if err := m.Write(*write); err != nil {
			return err
		}
		if langs != nil {
			l := strings.Join(langs, ",")
			fmt.Fprintf(stdout, "\nwrote the weight set for %s to %s: calibrate it with hone bench calibrate --languages %s --write %s, then rebuild hone to rank with it\n", l, *write, l, *write)
		} else {
			fmt.Fprintf(stdout, "\nwrote the model to %s: rebuild hone to rank with it\n", *write)
		}
	}
	if out != nil {
		return writeRows(out, cv)
	}
	return nil
}

// splitLanguages reads --languages: trimmed, without empties or
// repeats, sorted.
func splitLanguages(s string) []string {
	var out []string
	for _, l := range strings.Split(s, ",") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// intoModel places a fit into the model file at path: as the set for
// langs, its calibration to be fit by hone bench calibrate --languages,
// or, without langs, as the model's own weights, keeping its sets. A
// file not there yet takes the fit as its own weights.
func intoModel(path string, fit *rankmodel.Model, langs []string) (*rankmodel.Model, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && len(langs) == 0 {
		return fit, nil
	}
	if err != nil {
		return nil, usagef("cannot read the model to write the weight set into: %v", err)
	}
	m, err := rankmodel.Parse(b)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if len(langs) == 0 {
		fit.Sets = m.Sets
		return fit, nil
	}
	fit.About = "a weight set of hone's ranking model, for repositories whose main language is among its languages; hone bench calibrate --languages fits its calibration."
	fit.Languages = langs
	if old := m.SetFor(langs); old != nil {
		m.Sets[slices.Index(m.Sets, old)] = fit
		return m, nil
	}
	for _, s := range m.Sets {
		for _, l := range langs {
			if slices.Contains(s.Languages, l) {
				return nil, usagef("the set for %s already ranks %s: fit that set again with its languages, %s", strings.Join(s.Languages, ","), l, strings.Join(s.Languages, ","))
			}
		}
	}
	m.Sets = append(m.Sets, fit)
	return m, nil
}

// onlyIntoModel writes the weights of the signals named, fit alone, into
// the model at path: into the set for langs where there are langs, else
// into the model's own weights. The rest of the model stays as it was,
// its calibration included, and its notes say what was fit, on what, and
// how it did held out.
func onlyIntoModel(path string, fit *rankmodel.Model, names, langs []string, data, command string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return usagef("cannot read the model to write the weights into: %v", err)
	}
	m, err := rankmodel.Parse(b)
	if err != nil {
		return usagef("%s: %v", path, err)
	}
	into := m
	if langs != nil {
		if into = m.SetFor(langs); into == nil {
			return usagef("the model has no weight set for %s: fit one with hone bench fit --languages %s --write, without --only", strings.Join(langs, ","), strings.Join(langs, ","))
		}
	}
	var got []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		into.Weights[n] = fit.Weights[n]
		got = append(got, fmt.Sprintf("%s %g", n, fit.Weights[n]))
	}
	h := fit.HeldOut
	note := fmt.Sprintf("%s fit alone, every other weight held (%s), on %s; held out by repository Acc@1/3/5/10 %.1f/%.1f/%.1f/%.1f, MRR %.3f.",
		strings.Join(got, ", "), command, data, h.Acc1, h.Acc3, h.Acc5, h.Acc10, h.MRR)
	if rev := buildRevision(); rev != "" {
		note = strings.TrimSuffix(note, ".") + " (build " + rev + ")."
	}
	if into.Notes != "" {
		note = into.Notes + " " + note
	}
	into.Notes = note
	return m.Write(path)
}

const compareUsage = `hone bench compare OLD.jsonl NEW.jsonl`

// cmdBenchCompare sets two runs' rows side by side: Acc@k in each, and
// the instances whose gold rank moved.
func cmdBenchCompare(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench compare", flag.ContinueOnError)
	words, err := parseFlags(fs, args, stdout, compareUsage)
	if err != nil {
		return err
	}
	if len(words) != 2 {
		return usagef("usage: %s", compareUsage)
	}
	var runs [2][]bench.Row
	for i, p := range words {
		if runs[i], err = bench.ReadRows(p); err != nil {
			return usagef("cannot read the rows: %v", err)
		}
	}
	bench.PrintCompare(stdout, runs[0], runs[1])
	return nil
}

const reportUsage = `hone bench report ROWS.jsonl`

// cmdBenchReport prints the figures of rows an earlier run wrote.
func cmdBenchReport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench report", flag.ContinueOnError)
	words, err := parseFlags(fs, args, stdout, reportUsage)
	if err != nil {
		return err
	}
	if len(words) != 1 {
		return usagef("usage: %s", reportUsage)
	}
	rows, err := bench.ReadRows(words[0])
	if err != nil {
		return usagef("cannot read the rows: %v", err)
	}
	if len(rows) == 0 {
		return usagef("no rows in %s", words[0])
	}
	printRows(stdout, rows)
	return nil
}

const wordsUsage = `hone bench words --data FILE.jsonl --repos DIR [--map FILE] --common WORDS.txt`

// cmdBenchWords checks a set of tasks in users' words: no task word of
// four or more letters may be a part of an identifier on the lines its
// commit changed, common English words aside. It exits 1 when one is.
func cmdBenchWords(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench words", flag.ContinueOnError)
	data := fs.String("data", "", "the set: JSON lines with instance_id, repo, base_commit, commit, problem_statement, gold_files")
	repos := fs.String("repos", "", "directory holding a full-history git directory of each repository")
	mapping := fs.String("map", "", "file of \"owner/name = path\" lines, where a repository lives under --repos")
	common := fs.String("common", "", "common English words, one a line: allowed though code uses them")
	words, err := parseFlags(fs, args, stdout, wordsUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *data == "" || *repos == "" || *common == "" {
		return usagef("usage: %s", wordsUsage)
	}
	ins, err := bench.ReadInstances(*data)
	if err != nil {
		return usagef("cannot read the set: %v", err)
	}
	allowed, err := bench.ReadWordList(*common)
	if err != nil {
		return usagef("cannot read the common words: %v", err)
	}
	r, err := readRepos(*repos, *mapping)
	if err != nil {
		return err
	}
	// The identifiers named come from the commits' lines.
	var out strings.Builder
	named, broken := 0, 0
	for _, c := range bench.CheckWords(ctx, ins, r, allowed) {
		switch {
		case c.Error != "":
			broken++
			fmt.Fprintf(&out, "%s: %s\n", c.ID, c.Error)
		case len(c.Named) > 0:
			named++
			fmt.Fprintf(&out, "%s names the code: %s\n", c.ID, strings.Join(c.Named, ", "))
		}
	}
	fmt.Fprintf(&out, "%d tasks: %d name the code, %d could not be checked\n", len(ins), named, broken)
	if err := writeRedacted(stdout, out.String()); err != nil {
		return err
	}
	if named+broken > 0 {
		return errors.New("the set does not pass the word check")
	}
	return nil
}

const glossaryUsage = `hone bench glossary --text FILE [--top N]`

// cmdBenchGlossary measures the Chinese glossary's coverage of real text:
// the share of Han characters its terms and blockers cover, the texts it
// leaves a gap in, and the most frequent uncovered n-grams.
func cmdBenchGlossary(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench glossary", flag.ContinueOnError)
	text := fs.String("text", "", "the texts: one a line, or JSON lines with a \"problem_statement\" or \"task\" field")
	top := fs.Int("top", 40, "uncovered n-grams to list")
	words, err := parseFlags(fs, args, stdout, glossaryUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *text == "" || *top < 0 {
		return usagef("usage: %s", glossaryUsage)
	}
	texts, err := bench.ReadTexts(*text)
	if err != nil {
		return usagef("cannot read the texts: %v", err)
	}
	// The uncovered n-grams are the texts' own words.
	var out strings.Builder
	bench.GlossaryCoverage(texts, *top).Print(&out)
	return writeRedacted(stdout, out.String())
}

const mineUsage = `hone bench mine --git-dir DIR [--repo NAME] [--rev REV] [--n N] [--seed N] [--scan N]
                [--max-gold N] [--min-chars N] [--grep REGEXP] [--keep-scope] [--out FILE.jsonl]`

// cmdBenchMine makes benchmark instances out of a repository's history,
// for hone bench to run.
func cmdBenchMine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench mine", flag.ContinueOnError)
	gitDir := fs.String("git-dir", "", "the repository: a work tree or a git directory (a bare mirror will do)")
	repo := fs.String("repo", "", "the instances' repository name (default: the directory's name)")
	rev := fs.String("rev", "HEAD", "the newest commit to read")
	n := fs.Int("n", 100, "instances to keep at most, drawn at random from the commits that qualify")
	seed := fs.Uint64("seed", 1, "the draw's seed: the same seed draws the same instances")
	scan := fs.Int("scan", 20000, "commits to read, newest first")
	maxGold := fs.Int("max-gold", 3, "the most code files a commit may change")
	minChars := fs.Int("min-chars", 80, "the shortest commit message worth a task")
	grep := fs.String("grep", "", "a regular expression the commit's subject must match, case aside (fixes alone: 'fix|bug|crash')")
	keepScope := fs.Bool("keep-scope", false, "keep a subject's \"scope: \" prefix and the type(scope) of the squashed commits the body lists (they name the package of the fix)")
	out := fs.String("out", "", "write the instances to this JSON-lines file (default: standard output)")
	words, err := parseFlags(fs, args, stdout, mineUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *gitDir == "" {
		return usagef("usage: %s", mineUsage)
	}
	dir, err := filepath.Abs(*gitDir)
	if err != nil {
		return usagef("cannot use %s: %v", *gitDir, err)
	}
	b, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--absolute-git-dir").Output()
	if err != nil {
		return usagef("%s is not a git repository: give --git-dir a work tree or a git directory", *gitDir)
	}
	gd := strings.TrimSpace(string(b))
	if err := exec.CommandContext(ctx, "git", "--git-dir", gd, "rev-parse", "--quiet", "--verify", *rev+"^{commit}").Run(); err != nil {
		return usagef("no commit %q in %s: give --rev a branch, tag or commit of it", *rev, *gitDir)
	}
	var subject *regexp.Regexp
	if *grep != "" {
		if subject, err = regexp.Compile("(?i)" + *grep); err != nil {
			return usagef("bad --grep: %v", err)
		}
	}
	name := *repo
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(dir), ".git")
	}
	ins, st, err := bench.Mine(ctx, bench.MineOptions{GitDir: gd, Repo: name, Rev: *rev, N: *n, Seed: *seed,
		Scan: *scan, MaxGold: *maxGold, MinChars: *minChars, Subject: subject, KeepScope: *keepScope})
	if err != nil {
		return err
	}
	w, report := stdout, stderr
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return usagef("cannot write the instances: %v", err)
		}
		defer f.Close()
		w, report = f, stdout
	}
	enc := bench.NewEncoder(w)
	for _, in := range ins {
		if err := enc.Encode(in); err != nil {
			return fmt.Errorf("write the instances: %w", err)
		}
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return fmt.Errorf("write the instances to %s: %w", *out, err)
		}
	}
	fmt.Fprintf(report, "mined %d instances of %s from %d commits (%d qualified)\n", st.Kept, name, st.Commits, st.Qualified)
	fmt.Fprintf(report, "passed over: %d changed no code file outside tests, docs, vendored and generated code; "+
		"%d added, deleted or renamed one; %d changed over %d; %d had a message under %d characters; %d were reverts",
		st.NoCode, st.NewFiles, st.TooBig, *maxGold, st.Short, *minChars, st.Revert)
	if subject != nil {
		fmt.Fprintf(report, "; %d had a subject --grep did not match", st.Subject)
	}
	fmt.Fprintln(report)
	if *out != "" && st.Kept > 0 {
		parent := filepath.Dir(dir)
		if found, err := (bench.Repos{Dir: parent}).GitDir(name); err == nil && found == gd {
			fmt.Fprintf(report, "run them: hone bench --data %s --repos %s\n", *out, parent)
		} else {
			fmt.Fprintf(report, "run them: hone bench --data %s --repos %s --map FILE, with the line \"%s = %s\" in FILE\n", *out, parent, name, gd)
		}
	}
	return nil
}

const vocabUsage = `hone bench vocab --repos DIR --list REPOS.tsv --out FILE [--method ibm1|pmi] [--commits N]
                 [--map FILE] [--cache DIR] [--jobs N] [--skip-missing] [--eval]`

// cmdBenchVocab learns the general vocabulary, which code terms a task
// word points to, from a list of public repositories, and writes the
// table package lexicon embeds.
func cmdBenchVocab(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench vocab", flag.ContinueOnError)
	repos := fs.String("repos", "", "directory holding a git directory of each listed repository (a bare mirror will do)")
	mapping := fs.String("map", "", "file of \"owner/name = path\" lines, where a repository lives under --repos")
	list := fs.String("list", "", "the corpus: repo<TAB>commit<TAB>licence<TAB>language lines")
	excluded := fs.String("excluded", "", "repositories never to mine, one a line (default: excluded.txt beside --list)")
	out := fs.String("out", "", "write the table to this file")
	method := fs.String("method", bench.VocabIBM1, "how pairs are scored: ibm1 (IBM Model 1 by EM) or pmi (smoothed normalized PMI)")
	commits := fs.Int("commits", 2000, "commit units per repository, at most, newest first")
	files := fs.Int("files", 3000, "source files read per repository, at most")
	docs := fs.Int("docs", 6000, "doc units per repository, at most")
	top := fs.Int("top", 12, "terms kept per word")
	minWordUnits := fs.Int("min-word-units", 10, "units a word must be in")
	minRepos := fs.Int("min-repos", 3, "repositories a word, a term and a pair must be in")
	minPairUnits := fs.Int("min-pair-units", 4, "units a pair must be in")
	iterations := fs.Int("iterations", 5, "EM iterations of IBM Model 1")
	jobs := fs.Int("jobs", 2, "repositories mined at once")
	cache := fs.String("cache", "", "keep each repository's units in this directory between runs")
	skipMissing := fs.Bool("skip-missing", false, "pass over listed repositories that are not under --repos, instead of failing")
	eval := fs.Bool("eval", false, "measure both methods instead: learn from four fifths of the repositories, predict the other fifth's code terms")
	words, err := parseFlags(fs, args, stdout, vocabUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *repos == "" || *list == "" || (*out == "" && !*eval) {
		return usagef("usage: %s", vocabUsage)
	}
	r, err := readRepos(*repos, *mapping)
	if err != nil {
		return err
	}
	opt := bench.VocabOptions{Repos: r, List: *list, Excluded: *excluded, Method: *method,
		Commits: *commits, Files: *files, Docs: *docs, TopK: *top, MinWordUnits: *minWordUnits, MinRepos: *minRepos,
		MinPairUnits: *minPairUnits, Iterations: *iterations, Jobs: *jobs, Cache: *cache, SkipMissing: *skipMissing,
		Command: "hone bench vocab " + strings.Join(args, " "), Log: stderr}
	if *method != bench.VocabPMI && *method != bench.VocabIBM1 {
		return usagef("bad --method %q: pmi or ibm1", *method)
	}
	if *eval {
		res, st, err := bench.EvalVocab(ctx, opt)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d repositories mined in %s: %d doc units, %d commit units; a fifth held out\n",
			st.Mined, st.Mining.Round(time.Second), st.DocUnits, st.CommitUnits)
		fmt.Fprintf(stdout, "%-8s %-12s %7s %7s %7s %7s %7s %7s\n", "method", "units", "held", "hit@10", "rec@10", "idf@10", "mrr", "empty")
		for _, e := range res {
			fmt.Fprintf(stdout, "%-8s %-12s %7d %7.3f %7.3f %7.3f %7.3f %7.3f\n", e.Method, e.Kind, e.Units, e.Hit10, e.Rec10, e.IDF10, e.MRR, e.Empty)
		}
		return nil
	}
	data, st, err := bench.BuildVocab(ctx, opt)
	if err != nil {
		return err
	}
	// The table's words come from comments and commit messages.
	text, hidden := redact.String(string(data))
	if hidden > 0 {
		fmt.Fprintf(stderr, "hone: %d secrets were redacted from the table\n", hidden)
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write the vocabulary: %w", err)
	}
	fmt.Fprintf(stdout, "%d repositories mined in %s (%d doc units, %d commit units), scored by %s in %s: %d words, %d bytes in %s\n",
		st.Mined, st.Mining.Round(time.Second), st.DocUnits, st.CommitUnits, opt.Method, st.Scoring.Round(time.Millisecond), st.Words, st.Bytes, *out)
	if len(st.Missing) > 0 {
		fmt.Fprintf(stdout, "passed over %d listed repositories that are not there\n", len(st.Missing))
	}
	return nil
}

// readRepos is where the benchmark's repositories live: under dir, or
// where the mapping file says.
func readRepos(dir, mapping string) (bench.Repos, error) {
	r := bench.Repos{Dir: dir}
	if mapping != "" {
		m, err := bench.ReadMapping(mapping)
		if err != nil {
			return r, usagef("cannot read the mapping: %v", err)
		}
		r.Mapping = m
	}
	return r, nil
}

// parseBudgets reads --pack-budget's list of budgets.
func parseBudgets(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var budgets []int
	for _, b := range strings.Split(s, ",") {
		n, err := parseTokens(b)
		if err != nil || n < 1 {
			return nil, usagef("--pack-budget takes budgets in tokens, comma-separated, like 2000,8000 or 2k,8k: not %q", b)
		}
		budgets = append(budgets, n)
	}
	return budgets, nil
}

const packsUsage = `hone bench packs --dump DIR[,DIR...] [--pack-budget N,...] [--out ROWS.jsonl] [--misses] [--repos DIR [--map FILE]]
   or: hone bench packs --fit --dump DIR[,DIR...] [--test DIR[,DIR...]] [--pack-budget N,...|none] [--l2 X] [--repos DIR [--map FILE]]`

// cmdBenchPacks builds the context packs again from the folders runs'
// --pack-dump wrote, a set each, and reports how they hold the gold hunks:
// a change to the packing, measured in seconds. With --fit it fits the
// units' weights on the sets' gold files and reports them held out by
// repository.
func cmdBenchPacks(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench packs", flag.ContinueOnError)
	dump := fs.String("dump", "", "the folders runs' --pack-dump wrote, comma-separated: one set each")
	packBudgets := fs.String("pack-budget", "4000,8000", "budgets in tokens, comma-separated; with --fit, \"none\" reports the units' ranking alone")
	out := fs.String("out", "", "write per-instance rows to this JSON-lines file")
	misses := fs.Bool("misses", false, "list, for each pack that misses a hunk, the hunks, what went in and what was left out")
	fit := fs.Bool("fit", false, "fit the units' weights on the gold files of the sets, and measure the fit held out by repository")
	testDirs := fs.String("test", "", "with --fit: sets measured with the weights fitted on the others, never fitted on")
	l2 := fs.Float64("l2", 1e-3, "with --fit: the ridge penalty on the units' weights")
	repos := fs.String("repos", "", "directory holding a git directory of each repository: the past commits' lines of dumps written without them are read there")
	mapping := fs.String("map", "", "file of \"owner/name = path\" lines, where a repository lives under --repos")
	words, err := parseFlags(fs, args, stdout, packsUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *dump == "" {
		return usagef("usage: %s", packsUsage)
	}
	var budgets []int
	if *packBudgets != "none" || !*fit {
		if budgets, err = parseBudgets(*packBudgets); err != nil {
			return err
		}
	}
	if len(budgets) == 0 && !*fit {
		return usagef("--pack-budget needs a budget")
	}
	if *mapping != "" && *repos == "" {
		return usagef("--map says where repositories live under --repos: give --repos too")
	}
	if !(*l2 > 0) { // NaN too; 0 would mean the fit's default
		return usagef("--l2 is a penalty above 0: not %g", *l2)
	}
	var rs *bench.Repos
	if *repos != "" {
		r, err := readRepos(*repos, *mapping)
		if err != nil {
			return err
		}
		rs = &r
	}
	readSets := func(dirs string) ([]bench.PackSet, error) {
		var sets []bench.PackSet
		for _, dir := range strings.Split(dirs, ",") {
			dumps, err := bench.ReadPackDumps(dir)
			if err != nil {
				return nil, err
			}
			if len(dumps) == 0 {
				return nil, usagef("no pack dump in %s: write some with hone bench --pack-budget N --pack-dump %s", dir, dir)
			}
			if rs != nil {
				if n, err := bench.FillPast(context.Background(), *rs, dumps); err != nil {
					fmt.Fprintf(stdout, "%s: the past commits' lines of %d dumps could not be read (first: %v); their packs go without\n", dir, n, err)
				}
			}
			sets = append(sets, bench.PackSet{Name: filepath.Base(dir), Dir: dir, Dumps: dumps})
		}
		return sets, nil
	}
	sets, err := readSets(*dump)
	if err != nil {
		return err
	}
	if *fit {
		var test []bench.PackSet
		if *testDirs != "" {
			if test, err = readSets(*testDirs); err != nil {
				return err
			}
		}
		_, err := bench.FitPackUnits(stdout, sets, test, budgets, pack.CountTokens, bench.FitConfig{L2: *l2})
		return err
	}
	// The rows' file is made first, so that a path that cannot be
	// written fails before the work.
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return usagef("cannot write the rows: %v", err)
		}
	}
	var verbose io.Writer
	if *misses {
		verbose = stdout
	}
	var all []bench.Row
	for _, s := range sets {
		rows, err := bench.ReplayPacks(s.Dir, s.Dumps, budgets, pack.CountTokens, nil, verbose)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "== %s: %d instances, %d with a gold hunk\n", s.Name, len(rows), bench.WithHunks(s.Dumps))
		bench.PrintPacks(stdout, rows)
		all = append(all, rows...)
	}
	if f != nil {
		return writeRows(f, all)
	}
	return nil
}

// writeRows writes rows to f, a JSON object a line, and closes it.
func writeRows(f *os.File, rows []bench.Row) error {
	enc := bench.NewEncoder(f)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return fmt.Errorf("write the rows to %s: %w", f.Name(), err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write the rows to %s: %w", f.Name(), err)
	}
	return nil
}

const hunksUsage = `hone bench hunks --data FILE.jsonl --repos DIR [--map FILE] [--whole] --out FILE.jsonl`

// cmdBenchHunks gives each instance of a set made from commits (with
// base_commit and commit, as hone bench mine writes them) the gold_hunks
// of its change, so that its context packs can be measured.
func cmdBenchHunks(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench hunks", flag.ContinueOnError)
	data := fs.String("data", "", "the instances: JSON lines with repo, base_commit, commit and gold_files")
	repos := fs.String("repos", "", "directory holding a git directory of each repository")
	mapping := fs.String("map", "", "file of \"owner/name = path\" lines, where a repository lives under --repos")
	out := fs.String("out", "", "write the instances, with their gold_hunks, to this file")
	whole := fs.Bool("whole", false, "first make each instance's gold_files the whole change: every file its commit changed in place, tests aside (as Multi-SWE-bench's gold is), its hunks given anew")
	words, err := parseFlags(fs, args, stdout, hunksUsage)
	if err != nil {
		return err
	}
	if len(words) > 0 || *data == "" || *repos == "" || *out == "" {
		return usagef("usage: %s", hunksUsage)
	}
	if abs1, err1 := filepath.Abs(*data); err1 == nil {
		if abs2, err2 := filepath.Abs(*out); err2 == nil && abs1 == abs2 {
			return usagef("--out must not be --data: write the new set beside it, then move it")
		}
	}
	r, err := readRepos(*repos, *mapping)
	if err != nil {
		return err
	}
	in, err := os.Open(*data)
	if err != nil {
		return usagef("cannot read the instances: %v", err)
	}
	defer in.Close()
	var src io.Reader = in
	if *whole {
		var b bytes.Buffer
		n, err := bench.WholeChange(ctx, in, &b, r)
		if err != nil {
			return fmt.Errorf("bench hunks: %w", err)
		}
		fmt.Fprintf(stderr, "gave %d instances a gold of the whole change that differs from theirs\n", n)
		src = &b
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	n, err := bench.AddHunks(ctx, src, f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bench hunks: %w", err)
	}
	fmt.Fprintf(stderr, "gave %d instances their gold_hunks\n", n)
	return nil
}
