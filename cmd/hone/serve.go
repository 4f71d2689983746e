package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/serve"
	"github.com/hone-tools/hone/internal/warm"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/retrieve"
	"github.com/hone-tools/hone/structure"
)

// cmdServe keeps the indexes of the repositories hone's commands ask about
// open and watched, and answers those commands for them: a retrieve then
// walks no folder unless a file changed, and reads an index already in
// memory.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	dir := fs.String("index-dir", "", "the index folder whose commands it answers (default: $HONE_INDEX_DIR, else the user's cache directory)")
	quiet := fs.Bool("quiet", false, "log only what went wrong, not each call")
	idle := fs.Duration("idle", 0, "stop after answering no call for this long, e.g. 30m (default: run until stopped)")
	words, err := parseFlags(fs, args, stdout, "hone serve [--index-dir DIR] [--quiet] [--idle DURATION]\n\nAnswers hone retrieve and hone index in the commands' stead, for every repository,\nkeeping their indexes open and (on Linux) watched. It runs until interrupted, or\n--idle; the commands find it by the index folder, and work alone where none runs,\nor with --no-server.")
	if err != nil {
		return err
	}
	if err := noArgs("serve", "to serve", words); err != nil {
		return err
	}
	if *idle < 0 {
		return usagef("--idle must be a duration of 0 or more, e.g. 30m, not %s", *idle)
	}
	if *dir == "" {
		if *dir, err = index.DefaultDir(); err != nil {
			return err
		}
	}
	level := slog.LevelInfo
	if *quiet {
		level = slog.LevelWarn
	}
	log := redactedLog(stderr, level)
	l, err := serve.Listen(*dir)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	tradeMemoryForTime()
	pool := warm.New(*dir, log)
	defer pool.Close()
	redact.Warm()
	pack.Warm()
	h := &serveHandler{ctx: ctx, dir: *dir, pool: pool, log: log}
	s := &serve.Server{Version: serveBuild(), Handle: h.handle, Log: log, Idle: *idle, Env: readingEnv()}
	banner, _ := redact.String(fmt.Sprintf("hone serve: answering for the indexes in %s (socket %s); stop it with Ctrl-C\n", redact.QuotePath(*dir), redact.QuotePath(serve.Path(*dir))))
	fmt.Fprint(stderr, banner)
	err = s.Serve(ctx, l)
	stop() // the background reads stop too
	h.background.Wait()
	return err
}

// retrieveCall is a retrieve as its flags and task came to, which hone
// serve runs as the command would.
type retrieveCall struct {
	Root      string   `json:"root"`
	Task      string   `json:"task"`
	Format    string   `json:"format"`
	Budget    int      `json:"budget"`
	MaxCycles int      `json:"max_cycles"`
	Threshold float64  `json:"threshold"`
	MaxFiles  int      `json:"max_files"`
	Include   []string `json:"include,omitempty"`
	Exclude   []string `json:"exclude,omitempty"`
	NoHistory bool     `json:"no_history,omitempty"`
}

// options are the loop's options for the call, with the index folder
// dir and the notices' sink.
func (c retrieveCall) options(dir string, notice func(string)) hone.Options {
	return hone.Options{
		MaxCycles:  c.MaxCycles,
		Threshold:  c.Threshold,
		MaxFiles:   c.MaxFiles,
		Candidates: hone.DefaultCandidates,
		Include:    c.Include,
		Exclude:    c.Exclude,
		IndexDir:   dir,
		Notice:     notice,
		NoHistory:  c.NoHistory,
	}
}

// serveHandler runs the calls that come to hone serve.
type serveHandler struct {
	ctx     context.Context // the server's: what it starts outlives the call
	dir     string
	pool    *warm.Pool
	log     *slog.Logger
	reading sync.Map // the repositories whose history is read in the background
	// background are those reads, which the server waits for as it
	// stops (they stop with its context).
	background sync.WaitGroup
}

func (h *serveHandler) handle(ctx context.Context, command string, params json.RawMessage, stdout, stderr io.Writer, progress func(serve.Progress)) error {
	var err error
	// The client draws the index's update, as the command alone does.
	updating := func(p index.Progress) { progress(serve.Progress{Done: p.Done, Total: p.Total, Bytes: p.Bytes}) }
	switch command {
	case "retrieve":
		err = h.retrieve(ctx, params, stdout, stderr, updating)
	case "index":
		err = h.index(ctx, params, stdout, stderr, updating)
	default:
		return serve.Refuse(fmt.Sprintf("hone serve does not run %q", command))
	}
	// A usage error is the user's, as the command says it.
	var ue usageError
	if errors.As(err, &ue) {
		return serve.UsageError{Msg: ue.msg}
	}
	return err
}

// indexCall is hone index as its flags came to, which hone serve runs as
// the command would: it walks the repository only where its watcher says
// a file changed.
type indexCall struct {
	Root      string `json:"root"`
	NoHistory bool   `json:"no_history,omitempty"`
}

func (h *serveHandler) index(ctx context.Context, params json.RawMessage, stdout, stderr io.Writer, progress func(index.Progress)) error {
	var c indexCall
	if err := json.Unmarshal(params, &c); err != nil {
		return serve.Refuse("the call's parameters are not an index's: " + err.Error())
	}
	notice := notifier(stderr)
	ix, st, release, err := h.pool.Update(ctx, c.Root, warm.Call{Notice: notice, Progress: progress})
	if err != nil {
		return err
	}
	// As hone index does: damage a retrieval would meet later is found
	// now, and a new index built.
	if err := ix.CheckChanged(ctx); err != nil {
		release()
		if !index.IsDamaged(err) {
			return err
		}
		ix, release, err = h.pool.Index(ctx, c.Root, warm.Call{Update: func(ix *index.Index) (index.Stats, error) {
			st, err = ix.Rebuild(ctx, progress)
			return st, err
		}, Notice: notice})
		if err != nil {
			return err
		}
	}
	err = printIndexed(ctx, ix, st, stdout)
	// The history is read with the repository's index handed back: its
	// other calls need not wait for it.
	release()
	if err != nil {
		return err
	}
	if !c.NoHistory {
		h.readHistory(ctx, c.Root, stdout, stderr)
	}
	return nil
}

// readHistory reads the git history of the repository at root, as hone
// index does: a long one not read before is read in the background, by
// the server.
func (h *serveHandler) readHistory(ctx context.Context, root string, stdout, stderr io.Writer) {
	begin := time.Now()
	n, err := history.WarmUpTo(ctx, root, "", "", h.dir, backgroundAt)
	if !errors.Is(err, history.ErrLong) {
		sayHistoryRead(stdout, stderr, n, time.Since(begin), err)
		return
	}
	if _, busy := h.reading.LoadOrStore(root, true); !busy {
		h.background.Add(1)
		go func() {
			defer h.background.Done()
			defer h.reading.Delete(root)
			if _, err := history.Warm(h.ctx, root, "", "", h.dir); err != nil && !errors.Is(err, history.ErrNoGit) {
				h.log.Warn("read the git history", "repo", root, "err", err)
			}
		}()
	}
	fmt.Fprintf(stdout, "reading the git history in the background, in hone serve: answers leave it out until it is read (hone index --history-only waits for it)\n")
}

func (h *serveHandler) retrieve(ctx context.Context, params json.RawMessage, stdout, stderr io.Writer, progress func(index.Progress)) error {
	var c retrieveCall
	if err := json.Unmarshal(params, &c); err != nil {
		return serve.Refuse("the call's parameters are not a retrieve's: " + err.Error())
	}
	opts := c.options(h.dir, notifier(stderr))
	if err := opts.Check(); err != nil {
		return usagef("%v", err)
	}
	ix, release, err := h.pool.Index(ctx, c.Root, warm.Call{Notice: opts.Notice, Progress: progress})
	if err != nil {
		return err
	}
	defer release()
	var res *hone.Result
	err = warm.Repaired(ctx, ix, func() (err error) {
		res, err = retrieve.RetrieveIndex(ctx, ix, c.Task, opts)
		return err
	})
	if err != nil {
		return retrieveError(err)
	}
	return printRetrieve(res, c.Root, c.Format, c.Budget, stdout, stderr)
}

// callServer has the hone serve of the index folder dir (empty: the
// default) run a command, printing what it printed. done is false where
// no server ran it: none answers, it is another build, or it failed
// before answering; the command then runs in this process, and the last
// two are said. bar, if set, draws the server's update (nil: a bar of its
// own).
func callServer(ctx context.Context, dir, command string, params any, stdout, stderr io.Writer, bar *progressBar) (done bool, err error) {
	if dir == "" {
		if dir, err = index.DefaultDir(); err != nil {
			return false, nil
		}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return false, nil
	}
	auto, err := autoServe()
	if err != nil {
		return true, err
	}
	// A long update in the server draws its bar here, as alone.
	if bar == nil {
		bar = newProgressBar(stderr)
	}
	rep, err := serve.CallProgress(ctx, dir, serve.Request{Version: serveBuild(), Command: command, Params: raw, Env: readingEnv()}, func(p serve.Progress) {
		bar.update(index.Progress{Done: p.Done, Total: p.Total, Bytes: p.Bytes})
	})
	bar.done()
	switch {
	case errors.Is(err, serve.ErrNoServer):
		// A silent server holds the folder still: one started would go.
		if auto && !inGitHook() && !errors.Is(err, serve.ErrSilent) {
			startServer(dir, stderr)
		}
		return false, nil
	case ctx.Err() != nil:
		return true, ctx.Err()
	case err != nil:
		notifier(stderr)(fmt.Sprintf("working without hone serve, which failed: %v (its standard error may say why; --no-server works alone without asking it)", err))
		return false, nil
	case rep.Refused != "":
		notifier(stderr)(fmt.Sprintf("working without hone serve: %s", rep.Refused))
		return false, nil
	}
	// The server's output passed its redaction; this build's, as the
	// version check holds.
	if _, err := io.WriteString(stdout, rep.Stdout); err != nil {
		return true, err
	}
	io.WriteString(stderr, rep.Stderr)
	switch {
	case rep.Error == "":
		return true, nil
	case rep.Usage:
		return true, usageError{rep.Error}
	}
	return true, errors.New(rep.Error)
}

// serveBuild names this build for hone serve, which answers commands of
// its own build alone: the version, the commit, the parser that makes the
// outlines, and for a build of a modified work tree or of no known
// commit, the executable's size and time, which tell one such build from
// the next.
func serveBuild() string {
	rev := buildRevision()
	b := strings.Join(slices.DeleteFunc([]string{hone.Version, rev, structure.Parser()}, func(s string) bool { return s == "" }), " ")
	if rev != "" && !strings.HasSuffix(rev, "+dirty") {
		return b
	}
	exe, err := os.Executable()
	if err != nil {
		return b
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return b
	}
	return fmt.Sprintf("%s %d@%d", b, fi.Size(), fi.ModTime().UnixNano())
}

// A long-running server spends memory to spare the collector: its heap
// grows to five times what it keeps live (GOGC 400) rather than twice,
// within a soft limit of 1 GiB, past which the collector works as hard as
// it must. On a 5,000-file repository, answers took ×0.89 and ×0.87
// the time (paired), at 204 MB resident instead of 108 MB. GOGC and
// GOMEMLIMIT, when set, have their say instead.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 1 << 30
)

// tradeMemoryForTime makes the server's trade in this process, and
// returns what undoes it: the settings as they were. A hone retrieve or
// hone index working alone on a warm index makes it too (see
// cmdRetrieve), for it reads little and allocates much, briefly. They had
// left the collector off until a soft limit of 256 MiB (×0.92–0.95 the
// time of the server's trade, 2026-12-03); a heap that only grows meets
// each of its pages for the first time, and each first touch is a page
// fault, costly on a virtual machine. Since the history's read allocates
// a third less (pack version 3), and with the retrieve's pages mapped
// ahead (prefault), the server's trade is the faster, on a 5,000-file repository
// ×0.86–0.92 the wall time of the collector left off (see prefaultBytes).
func tradeMemoryForTime() (undo func()) { return trade(serveGCPercent, serveMemoryLimit) }

// prefaultBytes is what a retrieve working alone has mapped ahead
// (prefault): about what it allocates on a 5,000-file repository.
// Whole processes, 21 runs each, interleaved, its index warm (2026-12-05): three tasks
// ×0.86, ×0.87 and ×0.92 (a context pack) the wall time of the collector
// left off with no pages mapped ahead; the server's trade alone ×0.93,
// ×0.96, ×0.98; pages mapped ahead alone ×0.93, ×0.93, ×0.97. On this
// repository's own 400 files, ×0.91. Peak memory 78 MB instead of 85 MB.
// Where the kernel gives huge pages on request, they are taken instead
// (see retrieveHugeBytes), and nothing is mapped ahead.
const prefaultBytes = 32 << 20

// retrieveHugeBytes and indexHugeBytes are what a retrieve and a hone
// index working alone advise to take huge pages (prefault), where the
// kernel gives them on request. A retrieve allocates some 35 MB on a
// 5,000-file repository and more on a larger one; a huge page never touched
// costs nothing, so its share is twice that. A hone index with nothing
// changed allocates a third as much: 4 KiB pages mapped ahead made it
// ×1.11 (32 MB), huge pages faster (see docs/index.md, "Huge pages").
const (
	retrieveHugeBytes = 64 << 20
	indexHugeBytes    = 32 << 20
)

func trade(gcPercent int, memoryLimit int64) (undo func()) {
	gc, limit := -2, int64(-1)
	if os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(memoryLimit)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if gc != -2 {
				debug.SetGCPercent(gc)
			}
			if limit >= 0 {
				debug.SetMemoryLimit(limit)
			}
		})
	}
}

// autoIdle is how long a server that a command started (HONE_SERVE=auto)
// waits for a call before it stops.
const autoIdle = 30 * time.Minute

// autoServe reports whether HONE_SERVE asks the commands to start a hone
// serve where none answers.
func autoServe() (bool, error) {
	switch v := os.Getenv("HONE_SERVE"); v {
	case "", "off":
		return false, nil
	case "auto":
		return true, nil
	default:
		return false, usagef("HONE_SERVE=%q: set it to auto, to have hone start a hone serve where none runs, or leave it unset", v)
	}
}

// startServer starts hone serve for the index folder dir in the
// background, in a session of its own, to answer the commands after this
// one, and says so; it stops after autoIdle without a call. Two commands
// that start one at once start one: the other finds the folder served,
// and ends. What it logs goes to serve.log in the folder.
func startServer(dir string, stderr io.Writer) {
	exe, err := os.Executable()
	attr := detached()
	if err != nil || attr == nil {
		return
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // the server runs in it
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	logPath := filepath.Join(dir, "serve.log")
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer log.Close() // the process has its own copy
	// In the index folder: the server keeps no folder of the user's busy.
	cmd := &exec.Cmd{Path: exe, Args: []string{exe, "serve", "--index-dir", dir, "--idle", autoIdle.String(), "--quiet"},
		Env: backgroundEnv(), Dir: dir, Stdout: log, Stderr: log, SysProcAttr: attr}
	if err := cmd.Start(); err != nil {
		notifier(stderr)(fmt.Sprintf("could not start hone serve (HONE_SERVE=auto): %v", err))
		return
	}
	// A server that does not stay (another serves the folder already, one
	// another command started at the same moment; or it cannot listen)
	// goes at once: only one that stays is said to have started.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		// Where another serves the folder, nothing is to be said.
		if served, _ := serveStatus(context.Background(), dir); err != nil && !served {
			notifier(stderr)(fmt.Sprintf("hone serve (HONE_SERVE=auto) did not start: %v; its log says why: %s", err, logPath))
		}
		return
	case <-time.After(autoSettle):
	}
	notifier(stderr)(fmt.Sprintf("started hone serve (pid %d) for the commands after this one (HONE_SERVE=auto); it stops after %.0f minutes without a call; its log: %s",
		cmd.Process.Pid, autoIdle.Minutes(), logPath))
}

// autoSettle is how long a command waits to see that the server it
// started stays.
const autoSettle = 300 * time.Millisecond

// serveStatus says whether a hone serve of this build answers for the
// index folder dir (empty: the default), and a line that says what
// answers there, for hone status.
func serveStatus(ctx context.Context, dir string) (served bool, line string) {
	if dir == "" {
		var err error
		if dir, err = index.DefaultDir(); err != nil {
			return false, "none"
		}
	}
	st, err := serve.Probe(ctx, dir)
	switch {
	case err != nil:
		return false, "none (hone serve keeps indexes warm between commands: run \"hone help serve\")"
	case st.Version != serveBuild():
		return false, fmt.Sprintf("hone serve (pid %d) of another build, which this build's commands pass over: restart it", st.PID)
	}
	return true, fmt.Sprintf("hone serve (pid %d) answers this build's commands", st.PID)
}

// redactedLog is the log of hone's long-running processes (hone mcp, hone
// serve), at level and above: what it writes passes the redaction, as all
// hone prints does, since its notices and errors can name files and
// repeat what they hold.
func redactedLog(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		// A string, an error, and whatever else a value prints as (a
		// named string type, a slice, a Stringer: a client's own words
		// can come as any of them).
		var text string
		switch a.Value.Kind() {
		case slog.KindString:
			text = a.Value.String()
		case slog.KindAny:
			if err, ok := a.Value.Any().(error); ok {
				text = err.Error()
			} else {
				text = fmt.Sprint(a.Value.Any())
			}
		default:
			return a
		}
		text, _ = redact.String(text)
		return slog.String(a.Key, redact.Line(text))
	}}))
}
