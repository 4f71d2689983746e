package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/hone-tools/hone/retrieve"
	"github.com/hone-tools/hone/structure"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
)

var errHelp = errors.New("help shown")

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// tokenCount is a flag's count of tokens, as people write one: 8000, or
// 8k (1.5k is 1500).
type tokenCount int

func (n *tokenCount) String() string { return strconv.Itoa(int(*n)) }

func (n *tokenCount) Set(s string) error {
	v, err := parseTokens(s)
	if err != nil {
		return err
	}
	*n = tokenCount(v)
	return nil
}

// errTokens is what a count of tokens that is none says to do.
var errTokens = errors.New("give tokens as a number, like 8000 or 8k")

// parseTokens reads a count of tokens: a whole number, or thousands of
// them, k after a number of digits with a decimal point at most (8k,
// 1.5k), whole once multiplied.
func parseTokens(s string) (int, error) {
	t := strings.TrimSpace(s)
	k := strings.TrimRight(t, "kK")
	if k == t {
		n, err := strconv.Atoi(t)
		if err != nil {
			return 0, errTokens
		}
		return n, nil
	}
	if len(t)-len(k) != 1 || k == "" || k == "." || strings.Count(k, ".") > 1 || strings.Trim(k, "0123456789.") != "" || len(k) > 9 {
		return 0, errTokens
	}
	f, err := strconv.ParseFloat(k, 64)
	if v := f * 1000; err != nil || v != math.Trunc(v) {
		return 0, errTokens
	}
	return int(math.Round(f * 1000)), nil
}

// goneFlag is a flag hone no longer has: it takes any value, or none, so
// that its command can say what to do instead, whatever was written
// (--coverage, --coverage=0.5, --coverage 0.5), and takes no flag after
// it for its value.
type goneFlag struct{}

func (goneFlag) String() string   { return "" }
func (goneFlag) Set(string) error { return nil }
func (goneFlag) IsBoolFlag() bool { return true }

// maxTaskBytes bounds a task, from words, a file or standard input: the
// same limit as over MCP.
const maxTaskBytes = hone.MaxTaskBytes

func cmdRetrieve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("retrieve", flag.ContinueOnError)
	var idx indexFlags
	idx.register(fs)
	var ef evalFlags
	ef.register(fs)
	var bf backendFlags
	bf.register(fs)
	var (
		asJSON    = fs.Bool("json", false, "print one JSON object instead of the trace (the same as --format json)")
		format    = fs.String("format", "text", "text (the trace), json, or context (a pack to paste into a prompt)")
		maxCycles = fs.Int("max-cycles", hone.DefaultMaxCycles, "cycles of the loop at most (1-10)")
		threshold = fs.Float64("threshold", hone.DefaultThreshold, "the relevance a file needs to be among the result's files (0-1]: the probability that the task needs it; also the evaluator's score the loop aims its next search from, so another threshold can run another loop")
		maxFiles  = fs.Int("max-files", hone.DefaultMaxFiles, "the result's files at most, the context files that come with the targets counted")
		taskFile  = fs.String("task-file", "", "read the task from FILE, or from standard input with -")
		noHistory = fs.Bool("no-history", false, "leave the repository's git history out of the ranking")
		noServer  = fs.Bool("no-server", false, "work in this process, even where a hone serve runs for the index folder")
		include   stringList
		exclude   stringList
		budgetN   = tokenCount(pack.DefaultBudget)
		budget    = (*int)(&budgetN)
	)
	fs.Var(&budgetN, "budget", "with --format context: the most `tokens` the pack may hold (8000, or 8k)")
	fs.Var(goneFlag{}, "coverage", "gone: the result's files are those whose relevance reaches --threshold")
	fs.Var(&include, "include", "search only files matching GLOB (repeatable)")
	fs.Var(&exclude, "exclude", "never search files matching GLOB or under PATH (repeatable)")
	words, err := parseFlags(fs, args, stdout, "hone retrieve [flags] TASK WORDS...")
	if err != nil {
		return err
	}
	if err := idx.checkDir(); err != nil {
		return err
	}

	if isSet(fs, "coverage") {
		return usagef("--coverage is gone: each file's relevance is now its own probability, and the result's files are those at or above --threshold; set --threshold instead")
	}
	switch *format {
	case "text", "json", "context":
	default:
		return usagef("unknown format %q: use text, json or context", *format)
	}
	if *asJSON {
		if isSet(fs, "format") && *format != "json" {
			return usagef("--json is --format json, not --format %s: give one of the two", *format)
		}
		*format = "json"
	}
	if *budget < pack.MinBudget {
		return usagef("the budget must be at least %d tokens, not %d: a pack's header alone takes some", pack.MinBudget, *budget)
	}
	if isSet(fs, "budget") && *format != "context" {
		return usagef("--budget sizes a context pack: add --format context, or leave --budget out for the %s output", *format)
	}
	// A HONE_SERVE of a typo is said whether or not this call asks a
	// server: one that does not (a model evaluator, --no-server) would
	// pass it over silently.
	if _, err := autoServe(); err != nil {
		return err
	}
	// What hone serve is asked to run, where one answers; the task and
	// the repository join it below.
	call := retrieveCall{Format: *format, Budget: *budget, MaxCycles: *maxCycles, Threshold: *threshold,
		MaxFiles: *maxFiles, Include: include, Exclude: exclude, NoHistory: *noHistory}
	opts := call.options(idx.dir, notifier(stderr))
	// Indexing that takes over a second shows its progress on a terminal.
	bar := newProgressBar(stderr)
	opts.Progress = bar.progress
	// One check of the options, the library's; here, unlike in the
	// library, a zero is a mistake, not the default.
	if err := opts.Check(); err != nil {
		return usagef("%v", err)
	}
	model, err := ef.open(notifier(stderr))
	if err != nil {
		return err
	}
	if model != nil {
		opts.Evaluator = model.ForRun()
	}

	task := strings.Join(words, " ")
	if *taskFile != "" {
		if task != "" {
			return usagef("give the task as words or with --task-file, not both")
		}
		if task, err = readTask(*taskFile, stdin); err != nil {
			return err
		}
	}
	if len(task) > maxTaskBytes {
		return usagef("%v", hone.ErrTaskTooLong)
	}
	// Bytes that are not UTF-8 go no further, to the trace or a pack.
	if task, err = hone.TaskText(task); err != nil {
		return usagef("%v", err)
	}
	if strings.TrimSpace(task) == "" {
		if *taskFile == "" && piped(stdin) {
			// echo "the task" | hone retrieve: the words went nowhere.
			return usagef("the task is empty: say what you need context for, e.g. hone retrieve \"fix the token expiry bug\", or give --task-file - to read it from standard input")
		}
		return usagef("the task is empty: say what you need context for, e.g. hone retrieve \"fix the token expiry bug\"")
	}
	if !retrieve.HasSearchTerms(task) {
		return usagef("%v", hone.ErrNothingToSearch)
	}

	zc, err := bf.open()
	if err != nil {
		return err
	}
	var res *hone.Result
	var root string
	if zc != nil {
		if idx.repo != "" {
			return usagef("--backend zoekt searches the cluster, not --repo: give --zoekt-repos to narrow it")
		}
		warmPrinting(*format)
		var done func()
		res, root, done, err = retrieveZoekt(ctx, zc, task, opts)
		if done != nil {
			defer done()
		}
	} else {
		var outside bool
		root, outside, err = repoRoot(idx.repo)
		if err != nil {
			return err
		}
		if outside {
			sayOutside(stderr, root, idx.dir, bar)
		}
		if model == nil && !*noServer {
			// A hone serve that keeps this index warm answers in this
			// process's stead, printing what it would.
			call.Root, call.Task = root, task
			if done, err := callServer(ctx, idx.dir, "retrieve", call, stdout, stderr, bar); done {
				bar.done()
				return err
			}
		}
		// A retrieve on a warm index trades memory for time: it reads
		// little and allocates much, briefly (see tradeMemoryForTime).
		// One that first reads many files, a first index, gives it
		// back, so that its memory stays what an index's is.
		undo := tradeMemoryForTime()
		defer undo()
		prefault(retrieveHugeBytes, prefaultBytes)
		opts.Progress = func(done, total int, bytes int64) {
			if total >= bulkRead {
				undo()
			}
			bar.progress(done, total, bytes)
		}
		warmPrinting(*format)
		res, err = retrieve.Retrieve(ctx, root, task, opts)
	}
	bar.done()
	if err != nil {
		return retrieveError(err)
	}
	return printRetrieve(res, root, *format, *budget, stdout, stderr)
}

// warmPrinting builds in the background, while the retrieve runs, what
// printing its answer in format needs: the redactor, and for a context
// pack the tokenizer.
func warmPrinting(format string) {
	redact.Warm()
	if format == "context" {
		pack.Warm()
	}
}

// bulkRead: an update that reads this many files or more, before a
// retrieve, works with the collector's usual settings.
const bulkRead = 1000

// retrieveError is a failed retrieve's error as the command says it: a bad
// option is the user's.
func retrieveError(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var oe *hone.OptionError
	if errors.As(err, &oe) {
		return usagef("%v", err)
	}
	return err
}

// printRetrieve prints a result in the format asked for; with context,
// a pack of at most budget tokens of the files under root.
func printRetrieve(res *hone.Result, root, format string, budget int, stdout, stderr io.Writer) error {
	// Whatever hone prints has passed the redaction. JSON cannot carry a
	// name that is not UTF-8: Value quotes it; the text and the pack quote
	// the names themselves, once.
	if format == "json" {
		res.Redacted += redact.Value(res)
	} else {
		res.Redacted += redact.TextValue(res)
	}
	switch format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	case "context":
		p := pack.Build(res, root, pack.Options{Budget: budget, PastLines: pastLines(root, res)})
		if p.HeaderNeeds > 0 && len(p.Included) == 0 && len(res.Files) > 0 {
			// A pack of no code, only the line that says the budget is
			// too small, is no answer: the budget is the user's to mend.
			return usagef("--budget %d holds no code of the %d files found, nor the pack's header: raise --budget to %d or more", budget, len(res.Files), p.HeaderNeeds)
		}
		_, err := io.WriteString(stdout, p.Text)
		if n := res.Redacted + p.Redacted; n > 0 {
			fmt.Fprintf(stderr, "hone: %d secrets were redacted\n", n)
		}
		return err
	}
	var b strings.Builder
	if err := writeText(&b, res); err != nil {
		return err
	}
	return writeRedacted(stdout, b.String())
}

// pastLines reads the lines the result's past commits wrote, which the
// pack weighs; a history that cannot be read (no git, a shallow clone)
// leaves them out, and the pack is made without.
func pastLines(root string, res *hone.Result) map[string][]string {
	m, err := history.Added(context.Background(), root, "", res.PastCommits)
	if err != nil {
		return nil
	}
	return m
}

// parseInterspersed parses flags wherever they stand among the task words;
// "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return words, err // the words before the flag that failed
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return words, nil
		}
		// fs.Parse stops at the first word, or after "--".
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(words, rest...), nil
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
}

func readTask(name string, stdin io.Reader) (string, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", usagef("cannot read the task file: %v", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxTaskBytes+1))
	if err != nil {
		return "", usagef("cannot read the task: %v", err)
	}
	if len(b) > maxTaskBytes {
		return "", usagef("%v", hone.ErrTaskTooLong)
	}
	return string(b), nil
}

// repoRoot resolves --repo, or finds the git root enclosing the working
// directory, else takes the working directory itself, unless it is the
// home folder or the file system's root: those are indexed only when
// named with --repo. outside reports that last case, a folder outside any
// git work tree, which the caller says it works on (sayOutside).
func repoRoot(flagRepo string) (root string, outside bool, err error) {
	if flagRepo != "" {
		abs, err := filepath.Abs(flagRepo)
		if err != nil {
			return "", false, usagef("bad repository path %q: %v", flagRepo, err)
		}
		fi, err := os.Stat(abs)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return "", false, usagef("repository %s does not exist", redact.QuotePath(flagRepo))
		case err != nil:
			return "", false, usagef("cannot read repository %s: %v", redact.QuotePath(flagRepo), err)
		case !fi.IsDir():
			return "", false, usagef("repository %s is not a directory", redact.QuotePath(flagRepo))
		case walk.InGitDir(abs):
			return "", false, errGitDir(flagRepo)
		}
		if _, err := os.ReadDir(abs); err != nil {
			return "", false, usagef("cannot read repository %s: %v", redact.QuotePath(flagRepo), err)
		}
		return abs, false, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false, fmt.Errorf("find the working directory: %w", err)
	}
	if root, inGit := gitRoot(wd); inGit {
		return root, false, nil
	}
	if walk.InGitDir(wd) {
		return "", false, errGitDir(wd)
	}
	if walk.TooBroad(wd) {
		return "", false, usagef("%s is not in a git repository, and hone does not index a whole home folder or file system unasked: run hone in a repository, or name the folder with --repo", redact.QuotePath(wd))
	}
	return wd, true, nil
}

// errGitDir refuses a folder of git's own files as the repository.
func errGitDir(dir string) error {
	return usagef("%s is a git directory (a bare repository, a .git folder, or a folder inside one), not a work tree: give a checkout of it (git worktree add, or git clone)", redact.QuotePath(dir))
}

// sayOutside says that hone works on a folder outside any git work tree,
// and, where the folder has no index in dir yet, has the progress bar say
// how many of its files the first index reads.
func sayOutside(stderr io.Writer, root, dir string, bar *progressBar) {
	fmt.Fprintf(stderr, "hone: %s is not in a git repository: hone works on the folder itself, all of it (run hone in a repository, or name one with --repo)\n", redact.QuotePath(root))
	if bar != nil && !hasIndex(root, dir) {
		bar.outside = root
	}
}

// gitRoot finds the git work tree enclosing dir.
func gitRoot(dir string) (string, bool) {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func versionString() string {
	if rev := buildRevision(); rev != "" {
		return hone.Version + " (" + rev + ")"
	}
	return hone.Version
}

// parserText says which extractor makes the exact outlines in this build.
func parserText() string {
	if langs := structure.TreeSitterLanguages(); len(langs) > 0 {
		return fmt.Sprintf("%s (%d languages; others by line patterns)", structure.Parser(), len(langs))
	}
	return structure.Parser() + " (built without cgo: tree-sitter's grammars need a C compiler)"
}

// buildRevision is the commit the binary was built from, its first 12
// digits, with "+dirty" when the work tree had changes; empty when the
// build does not say.
func buildRevision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(12, len(s.Value))]
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "+dirty"
	}
	return rev
}

// piped reports whether r is a pipe or a file, not a terminal: what a
// shell gives a command after |, or < file.
func piped(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice == 0 && (fi.Mode()&os.ModeNamedPipe != 0 || fi.Mode().IsRegular())
}
