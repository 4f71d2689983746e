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
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
)

// indexFlags are the flags every command that opens an index shares.
type indexFlags struct {
	repo, dir string
}

func (f *indexFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.repo, "repo", "", "the repository (default: the git root enclosing the working directory; outside git, the working directory itself, unless it is a home folder or the file system's root)")
	fs.StringVar(&f.dir, "index-dir", "", "where indexes live (default: $HONE_INDEX_DIR, else the user's cache directory)")
}

// checkDir refuses an index folder that cannot be one, as a regular file
// or a path under one is not, with what to do: before anything reads or
// makes an index, which would say only that a folder could not be made.
// A folder that is not there yet is made by the first index.
func (f *indexFlags) checkDir() error {
	dir, from := f.dir, "--index-dir"
	if dir == "" {
		if dir = os.Getenv("HONE_INDEX_DIR"); dir != "" {
			from = "HONE_INDEX_DIR"
		} else {
			d, err := index.DefaultDir()
			if err != nil {
				return err
			}
			dir, from = d, "the index folder"
		}
	}
	// The nearest part of the path that is there must be a folder.
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			what := redact.QuotePath(dir) + " is not a folder"
			if p != filepath.Clean(dir) {
				what = fmt.Sprintf("%s is under %s, which is not a folder", redact.QuotePath(dir), redact.QuotePath(p))
			}
			switch from {
			case "--index-dir":
				return usagef("--index-dir %s: give the folder the indexes go in (hone makes it if it is not there), or leave the flag out for the default", what)
			case "HONE_INDEX_DIR":
				return usagef("HONE_INDEX_DIR %s: set it to the folder the indexes go in (hone makes it if it is not there), or unset it for the default", what)
			}
			return usagef("the index folder %s: give another with --index-dir or HONE_INDEX_DIR", what)
		case !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return nil // the index's own open says what it cannot read
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// hasIndex reports whether the repository at root has an index in dir
// (the default where dir is ""): an update of one reads only the files
// changed since, and one that is not there reads them all.
func hasIndex(root, dir string) bool {
	path, err := index.PathOf(root, index.Options{Dir: dir})
	if err != nil {
		return false
	}
	_, err = os.Stat(path)
	return err == nil
}

func notifier(stderr io.Writer) func(string) {
	return func(s string) {
		// A notice can name files and repeat errors: it is output too.
		s, _ = redact.String(s)
		fmt.Fprintf(stderr, "hone: %s\n", redact.Line(s))
	}
}

// parseFlags parses a command's flags, wherever they stand among its
// words. A flag set to nothing, as in --index-dir "", is a mistake, not a
// way to ask for the default: it is refused, for every flag but the
// booleans.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer, usage string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var empty string
	orig := map[string]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			return
		}
		if _, ok := f.Value.(goneFlag); ok {
			return // its command refuses it, whatever its value
		}
		orig[f.Name] = f.Value
		f.Value = nonEmpty{Value: f.Value, name: f.Name, empty: &empty}
	})
	words, err := parseInterspersed(fs, args)
	// The flags get their own values back: the help prints their types
	// and defaults from them.
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := orig[f.Name]; ok {
			f.Value = v
		}
	})
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "Usage: "+usage)
		// The flags that are gone are refused with what to use instead,
		// not offered.
		shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		fs.VisitAll(func(f *flag.Flag) {
			if _, gone := f.Value.(goneFlag); !gone {
				shown.Var(f.Value, f.Name, f.Usage)
				shown.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		shown.SetOutput(stdout)
		shown.PrintDefaults()
		return nil, errHelp
	}
	if empty != "" {
		return nil, usagef("--%s needs a value: give one, or leave the flag out for its default (run \"hone %s -h\" for the flags)", empty, fs.Name())
	}
	if err != nil {
		if word, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok && strings.Contains(usage, "WORDS") {
			// A task's word may start with a dash: "-verbose is
			// ignored", "fix the -v flag". The suggestion is the task
			// as given, its words before the dash's and all after it.
			task := word + " ..."
			if i := slices.IndexFunc(args, func(a string) bool {
				a, _, _ = strings.Cut(a, "=")
				return a == word || a == "-"+word
			}); i >= 0 {
				task = strings.Join(append(slices.Clone(words), args[i:]...), " ")
			}
			return nil, usagef("%v (run \"hone %s -h\" for the flags; a task with a word that starts with a dash goes after --: hone %s -- %s)", err, fs.Name(), fs.Name(), task)
		}
		return nil, usagef("%v (run \"hone %s -h\" for the flags)", err, fs.Name())
	}
	return words, nil
}

// nonEmpty is a flag's value that refuses to be set to nothing, and
// records which flag was.
type nonEmpty struct {
	flag.Value
	name  string
	empty *string
}

func (v nonEmpty) Set(s string) error {
	if s == "" {
		if *v.empty == "" {
			*v.empty = v.name
		}
		return errors.New("empty")
	}
	return v.Value.Set(s)
}

// noArgs refuses the words given to a command that takes none. One word
// that names a folder was most likely meant as the repository: the error
// says how to give it.
func noArgs(cmd, purpose string, words []string) error {
	if len(words) == 0 {
		return nil
	}
	if len(words) == 1 {
		if fi, err := os.Stat(words[0]); err == nil && fi.IsDir() {
			dir := shellWord(words[0])
			return usagef("%s takes no arguments: %s %s, run \"hone %s --repo %s\"", cmd, purpose, dir, cmd, dir)
		}
	}
	return usagef("%s takes no arguments, not %q", cmd, strings.Join(words, " "))
}

// shellWord writes s as one word of a shell command line: as it is when
// it needs no quotes, else in single quotes; a name a terminal could take
// for control characters in Go's quoted form, as redact.QuotePath has it.
func shellWord(s string) string {
	if q := redact.QuotePath(s); q != s {
		return q
	}
	plain := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./,:@%+=", c) || c >= 0x80) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isSet reports whether the command line set the flag, whatever to.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

func cmdIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	var f indexFlags
	f.register(fs)
	rebuild := fs.Bool("rebuild", false, "discard the index and build it again")
	noHistory := fs.Bool("no-history", false, "do not read the repository's git history")
	historyOnly := fs.Bool("history-only", false, "read the git history, and not the files, waiting for a read under way (what hone index starts in the background for a long history)")
	noServer := fs.Bool("no-server", false, "walk the repository in this process, even where a hone serve watches it")
	words, err := parseFlags(fs, args, stdout, "hone index [--repo DIR] [--index-dir DIR] [--rebuild] [--no-history | --history-only] [--no-server]")
	if err != nil {
		return err
	}
	if err := noArgs("index", "to index", words); err != nil {
		return err
	}
	if err := f.checkDir(); err != nil {
		return err
	}
	if *historyOnly && (*noHistory || *rebuild) {
		return usagef("--history-only reads the history alone: leave out --no-history and --rebuild")
	}
	// A HONE_SERVE of a typo is said whether or not this call asks a
	// server: one that does not (--rebuild) would pass it over silently.
	if _, err := autoServe(); err != nil {
		return err
	}
	root, outside, err := repoRoot(f.repo)
	if err != nil {
		return err
	}
	opts := index.Options{Dir: f.dir, Notice: notifier(stderr)}
	if _, err := index.PathOf(root, opts); err != nil {
		return err // before the history's read starts
	}
	if *historyOnly {
		begin := time.Now()
		n, err := history.Warm(ctx, root, "", "", f.dir)
		if err != nil {
			if errors.Is(err, history.ErrNoGit) {
				return fmt.Errorf("%s has no git history to read", root)
			}
			return fmt.Errorf("read the git history of %s: %w", root, err)
		}
		fmt.Fprintf(stdout, "read the git history: %d commits in %s\n", n, time.Since(begin).Round(time.Millisecond))
		return nil
	}
	if outside {
		sayOutside(stderr, root, f.dir, nil)
	}
	if !*rebuild && !*noServer {
		// A hone serve that watches this repository knows whether a file
		// changed, and walks only then.
		c := indexCall{Root: root, NoHistory: *noHistory}
		if done, err := callServer(ctx, f.dir, "index", c, stdout, stderr, nil); done {
			return err
		}
	}
	// The git history too, so that the first retrieval finds it read: a
	// short one beside the index, a long one after it, in the background.
	var hist *indexHistory
	if !*noHistory {
		hist = startIndexHistory(ctx, root, f.dir)
		defer hist.stop()
	}
	bar := newProgressBar(stderr)
	if outside && (*rebuild || !hasIndex(root, f.dir)) {
		bar.outside = root
	}
	var ix *index.Index
	var st index.Stats
	if *rebuild {
		if ix, err = index.Open(ctx, root, opts); err == nil {
			st, err = ix.Rebuild(ctx, bar.update)
		}
	} else {
		// An update that finds little changed allocates much, briefly,
		// as a retrieve does: it makes the server's trade (see
		// tradeMemoryForTime), and gives it back when it must read many
		// files, and for the check below, which reads the whole index
		// after a change and would double the process's memory.
		undo := tradeMemoryForTime()
		prefault(indexHugeBytes, 0)
		ix, st, err = index.OpenUpdate(ctx, root, opts, func(p index.Progress) {
			if p.Total >= bulkRead {
				undo()
			}
			bar.update(p)
		})
		undo()
	}
	if ix != nil {
		defer ix.Close()
	}
	bar.done()
	if err != nil {
		return err
	}
	if !*rebuild {
		// The whole index is read once: damage a retrieval would meet
		// later is found now, and a new index built. An index file
		// unchanged since it was last read so is not read again.
		if err := ix.CheckChanged(ctx); err != nil {
			if !index.IsDamaged(err) {
				return err
			}
			bar = newProgressBar(stderr)
			st, err = ix.Rebuild(ctx, bar.update)
			bar.done()
			if err != nil {
				return err
			}
		}
	}
	if err := printIndexed(ctx, ix, st, stdout); err != nil {
		return err
	}
	if hist != nil {
		hist.report(ctx, root, f.dir, stdout, stderr)
	}
	return nil
}

// printIndexed says what an update of the index did.
func printIndexed(ctx context.Context, ix *index.Index, st index.Stats, stdout io.Writer) error {
	source, size, err := ix.Footprint(ctx)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "indexed %d files (%s) in %s: %d added, %d changed, %d deleted; index %s at %s\n",
		st.Files, bytesText(source), st.Elapsed.Round(time.Millisecond), st.Added, st.Changed, st.Deleted,
		bytesText(size), redact.QuotePath(ix.Path)); err != nil {
		return err
	}
	if st.Skipped.Any() {
		if _, err := fmt.Fprintf(stdout, "skipped: %s\n", st.Skipped); err != nil {
			return err
		}
	}
	return nil
}

func cmdStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	var f indexFlags
	f.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	words, err := parseFlags(fs, args, stdout, "hone status [--repo DIR] [--index-dir DIR] [--json]")
	if err != nil {
		return err
	}
	if err := noArgs("status", "for the status of", words); err != nil {
		return err
	}
	if err := f.checkDir(); err != nil {
		return err
	}
	root, _, err := repoRoot(f.repo)
	if err != nil {
		return err
	}
	// The status makes no index: a folder never indexed is told how to
	// make one.
	opts := index.Options{Dir: f.dir, Notice: notifier(stderr)}
	ix, err := index.OpenExisting(ctx, root, opts)
	if errors.Is(err, index.ErrNoIndex) {
		return noIndexStatus(ctx, stdout, root, opts, f, *asJSON)
	}
	if err != nil {
		return err
	}
	defer ix.Close()
	st, err := ix.Status(ctx)
	if index.IsDamaged(err) {
		// A new index, with a notice, rather than a status of a damaged one.
		if _, err := ix.Rebuild(ctx, nil); err != nil {
			return err
		}
		st, err = ix.Status(ctx)
	}
	if err != nil {
		return err
	}
	served, serveLine := serveStatus(ctx, f.dir)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		// An index never written (its first update stopped before any
		// write) holds nothing yet: not indexed, and no time of update.
		out := map[string]any{
			"repo": st.Root, "index": st.Path, "indexed": !st.Updated.IsZero(), "files": st.Files, "index_bytes": st.Bytes,
			"source_bytes": st.Source, "segments": st.Segments, "delta": st.Delta,
			"complete": st.Complete, "skipped": st.Skipped, "parser": structure.Parser(), "served": served,
		}
		if !st.Updated.IsZero() {
			out["updated"] = st.Updated
		}
		return enc.Encode(out)
	}
	fmt.Fprintf(stdout, "repo:     %s\n", redact.QuotePath(st.Root))
	fmt.Fprintf(stdout, "index:    %s\n", redact.QuotePath(st.Path))
	fmt.Fprintf(stdout, "files:    %d (%s of source)\n", st.Files, bytesText(st.Source))
	fmt.Fprintf(stdout, "size:     %s\n", bytesText(st.Bytes))
	if st.Updated.IsZero() {
		fmt.Fprintf(stdout, "updated:  never (run \"hone index\")\n")
	} else {
		fmt.Fprintf(stdout, "updated:  %s (%s ago)\n", st.Updated.Local().Format("2006-01-02 15:04:05"), time.Since(st.Updated).Round(time.Second))
		if !st.Complete {
			fmt.Fprintf(stdout, "          unfinished: an update was stopped, or is under way in another process (run \"hone index\" to finish it)\n")
		}
	}
	if st.Skipped.Any() {
		fmt.Fprintf(stdout, "skipped:  %s\n", st.Skipped)
	}
	fmt.Fprintf(stdout, "outlines: %s\n", parserText())
	fmt.Fprintf(stdout, "serve:    %s\n", serveLine)
	return nil
}

// noIndexStatus is the status of a repository with no index yet.
func noIndexStatus(ctx context.Context, stdout io.Writer, root string, opts index.Options, f indexFlags, asJSON bool) error {
	path, err := index.PathOf(root, opts)
	if err != nil {
		return err
	}
	// A server answers for the folder whether or not this repository has
	// an index yet.
	served, serveLine := serveStatus(ctx, f.dir)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"repo": root, "index": path, "indexed": false, "parser": structure.Parser(), "served": served})
	}
	fmt.Fprintf(stdout, "repo:     %s\n", redact.QuotePath(root))
	cmd := "hone index"
	if f.repo != "" {
		cmd += " --repo " + shellWord(f.repo)
	}
	if f.dir != "" {
		cmd += " --index-dir " + shellWord(f.dir)
	}
	fmt.Fprintf(stdout, "index:    none yet: run \"%s\" to make one\n", cmd)
	fmt.Fprintf(stdout, "outlines: %s\n", parserText())
	fmt.Fprintf(stdout, "serve:    %s\n", serveLine)
	return nil
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// progressBar draws on a terminal, once the work has taken progressAfter,
// and stays silent anywhere else.
type progressBar struct {
	w     io.Writer
	tty   bool
	start time.Time
	last  time.Time
	drew  bool
	// outside names a folder outside any git work tree that is indexed
	// whole, its index new or rebuilt: the first update says, on any
	// output, how many of its files are read. An update of an index that
	// is there says nothing: it reads only what changed.
	outside string
}

// progressAfter: work shorter than this shows no progress.
const progressAfter = time.Second

func newProgressBar(w io.Writer) *progressBar {
	b := &progressBar{w: w, start: time.Now()}
	under := w // the terminal, if any, under the redaction
	if r, ok := w.(redactWriter); ok {
		under = r.w
	}
	if f, ok := under.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			b.tty = true
		}
	}
	return b
}

// progress is update for the library's Options.Progress.
func (b *progressBar) progress(done, total int, bytes int64) {
	b.update(index.Progress{Done: done, Total: total, Bytes: bytes})
}

func (b *progressBar) update(p index.Progress) {
	if b.outside != "" && p.Total > 0 {
		fmt.Fprintf(b.w, "hone: indexing %d file%s of %s, which is not a git repository\n", p.Total, plural(p.Total), redact.QuotePath(b.outside))
		b.outside = ""
	}
	if !b.tty || p.Total == 0 || time.Since(b.start) < progressAfter || time.Since(b.last) < 100*time.Millisecond && p.Done != p.Total {
		return
	}
	b.last = time.Now()
	const width = 30
	fill := width * p.Done / p.Total
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d files, %s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), p.Done, p.Total, bytesText(p.Bytes))
	b.drew = true
}

func (b *progressBar) done() {
	if b.drew {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", 70))
	}
}
