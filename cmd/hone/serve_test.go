package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/bench"
	"github.com/hone-tools/hone/internal/serve"
	"github.com/hone-tools/hone/internal/warm"
	"github.com/hone-tools/hone/redact/redacttest"
)

// startServe starts a hone serve for the index folder dir, of build
// version; it counts the calls it answers.
func startServe(t testing.TB, dir, version string) *atomic.Int32 {
	t.Helper()
	l, err := serve.Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pool := warm.New(dir, log)
	ctx, cancel := context.WithCancel(context.Background())
	h := &serveHandler{ctx: ctx, dir: dir, pool: pool, log: log}
	var calls atomic.Int32
	s := &serve.Server{Version: version, Log: log, Env: readingEnv(), Handle: func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, progress func(serve.Progress)) error {
		calls.Add(1)
		return h.handle(ctx, cmd, p, stdout, stderr, progress)
	}}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		pool.Close()
	})
	return &calls
}

// runTimes hides the times a run reports, which differ run by run.
var runTimes = regexp.MustCompile(`(?m)(\d+ ms|"(elapsed_ms|update|task|rank|history)": \d+|^ +\d+,?$)`)

func runOut(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e strings.Builder
	code = run(context.Background(), args, strings.NewReader(""), &o, &e)
	return runTimes.ReplaceAllString(o.String(), "TIME"), e.String(), code
}

// A retrieve that a hone serve answers prints what the command prints
// alone, in every format.
func TestRetrieveServed(t *testing.T) {
	repo := filepath.Join("..", "..", "testdata", "repos", "login-throttle")
	dir := t.TempDir()
	calls := startServe(t, dir, serveBuild())
	for _, format := range []string{"text", "json", "context"} {
		args := []string{"retrieve", "--repo", repo, "--index-dir", dir, "--format", format, "--include", "**/*.py", "rate limiting on login"}
		if format == "context" {
			args = append(args[:len(args)-1], "--budget", "1500", args[len(args)-1])
		}
		before := calls.Load()
		served, servedErr, code := runOut(t, args...)
		if code != 0 {
			t.Fatalf("%s, served: exit %d: %s", format, code, servedErr)
		}
		if calls.Load() != before+1 {
			t.Fatalf("%s: hone serve did not answer", format)
		}
		alone, aloneErr, code := runOut(t, append([]string{"retrieve", "--no-server"}, args[1:]...)...)
		if code != 0 {
			t.Fatalf("%s, alone: exit %d: %s", format, code, aloneErr)
		}
		if calls.Load() != before+1 {
			t.Fatalf("%s: --no-server called hone serve", format)
		}
		if served != alone {
			t.Errorf("%s: served and alone differ:\n--- served\n%s\n--- alone\n%s", format, served, alone)
		}
		if servedErr != aloneErr {
			t.Errorf("%s: standard error differs: served %q, alone %q", format, servedErr, aloneErr)
		}
	}
	// A usage error the server finds is the command's, exit 2.
	if _, stderr, code := runOut(t, "retrieve", "--repo", repo, "--index-dir", dir, "--include", "[", "login"); code != 2 || !strings.Contains(stderr, "hone: ") {
		t.Errorf("a bad glob: exit %d, %q; want 2 and one line", code, stderr)
	}
}

// A server of another build does not answer: the command works alone and
// says why; a socket whose server is gone is passed over in silence.
func TestRetrieveNotServed(t *testing.T) {
	repo := filepath.Join("..", "..", "testdata", "repos", "login-throttle")
	args := func(dir string) []string {
		return []string{"retrieve", "--repo", repo, "--index-dir", dir, "--format", "json", "rate limiting on login"}
	}
	alone, _, code := runOut(t, append(args(t.TempDir()), "--no-server")...)
	if code != 0 {
		t.Fatalf("alone: exit %d", code)
	}

	other := t.TempDir()
	calls := startServe(t, other, "v0.0.0-other")
	out, stderr, code := runOut(t, args(other)...)
	if code != 0 || calls.Load() != 0 {
		t.Fatalf("another build: exit %d, %d calls answered", code, calls.Load())
	}
	if !strings.Contains(stderr, "working without hone serve") || !strings.Contains(stderr, "v0.0.0-other") {
		t.Errorf("another build's server: stderr %q, want it said", stderr)
	}
	if out != alone {
		t.Errorf("another build's server: the output differs from the command's alone")
	}

	gone := t.TempDir()
	l, err := net.Listen("unix", serve.Path(gone))
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if _, err := os.Stat(serve.Path(gone)); err != nil {
		t.Fatal("the stopped server's socket should stay:", err)
	}
	out, stderr, code = runOut(t, args(gone)...)
	if code != 0 || stderr != "" || out != alone {
		t.Errorf("a stopped server's socket: exit %d, stderr %q; want the command's own output and nothing said", code, stderr)
	}
	// hone serve takes a stopped server's socket, and refuses a live one's.
	if _, stderr, code := runOut(t, "serve", "--index-dir", other); code != 1 || !strings.Contains(stderr, "already serves") {
		t.Errorf("a second server: exit %d, %q", code, stderr)
	}
	l2, err := serve.Listen(gone)
	if err != nil {
		t.Fatalf("a stopped server's socket was not taken: %v", err)
	}
	l2.Close()
}

// hone index, served, walks only where a file changed, and says what
// the command alone says.
func TestIndexServed(t *testing.T) {
	repo := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc Alpha() {}\n")
	write("b.go", "package a\n\nfunc Bravo() {}\n")
	dir := t.TempDir()
	calls := startServe(t, dir, serveBuild())
	index := func(extra ...string) string {
		t.Helper()
		out, stderr, code := runOut(t, append([]string{"index", "--repo", repo, "--index-dir", dir}, extra...)...)
		if code != 0 {
			t.Fatalf("hone index %v: exit %d: %s", extra, code, stderr)
		}
		return out
	}
	first := index()
	if calls.Load() != 1 || !strings.Contains(first, "indexed 2 files") || !strings.Contains(first, "2 added") {
		t.Fatalf("the first index, served (%d calls): %s", calls.Load(), first)
	}
	index() // the watches settle
	again := index()
	if !strings.Contains(again, "indexed 2 files") || !strings.Contains(again, "0 added, 0 changed, 0 deleted") {
		t.Errorf("nothing changed, served: %s", again)
	}
	alone := index("--no-server")
	if calls.Load() != 3 {
		t.Errorf("--no-server called hone serve (%d calls)", calls.Load())
	}
	took := regexp.MustCompile(` in [0-9.]+[µmn]?s:`)
	if took.ReplaceAllString(again, " in TIME:") != took.ReplaceAllString(alone, " in TIME:") {
		t.Errorf("served and alone differ:\n%s\n%s", again, alone)
	}
	write("c.go", "package a\n\nfunc Charlie() {}\n")
	if out := index(); !strings.Contains(out, "indexed 3 files") || !strings.Contains(out, "1 added") {
		t.Errorf("after a new file, served: %s", out)
	}
}

// hone serve spends memory to spare the collector, unless GOGC or
// GOMEMLIMIT say otherwise; the trade can be undone.
func TestServeTradesMemory(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tr := range []struct {
		name     string
		trade    func() func()
		gc       int
		memLimit int64
	}{
		{"hone serve", tradeMemoryForTime, serveGCPercent, serveMemoryLimit},
	} {
		for _, tt := range []struct {
			gogc, limit string
			wantGC      int
			wantLimit   int64
		}{
			{"", "", tr.gc, tr.memLimit},
			{"150", "", 100, tr.memLimit},
			{"", "2GiB", tr.gc, math.MaxInt64}, // GOMEMLIMIT's own, none set before
		} {
			t.Setenv("GOGC", tt.gogc)
			t.Setenv("GOMEMLIMIT", tt.limit)
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			undo := tr.trade()
			if got := debug.SetGCPercent(-1); got != tt.wantGC {
				t.Errorf("%s, GOGC=%q: GC percent %d, want %d", tr.name, tt.gogc, got, tt.wantGC)
			}
			debug.SetGCPercent(tt.wantGC)
			if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
				t.Errorf("%s, GOMEMLIMIT=%q: limit %d, want %d", tr.name, tt.limit, got, tt.wantLimit)
			}
			// Undone, once or twice, the settings are those before.
			undo()
			undo()
			if got := debug.SetGCPercent(-1); got != 100 {
				t.Errorf("%s, GOGC=%q: GC percent %d once undone, want 100", tr.name, tt.gogc, got)
			}
			debug.SetGCPercent(100)
			if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
				t.Errorf("%s, GOMEMLIMIT=%q: limit %d once undone, want none", tr.name, tt.limit, got)
			}
		}
	}
}

// BenchmarkRetrieveServed times hone retrieve's client against a hone
// serve in this process, warm: the call, the server's loop and the
// printing, but not a process's start. HONE_BENCH_REPO names the
// repository; HONE_BENCH_TASKS, if set, is a file of tasks taken in turn
// (as BenchmarkRetrieveWarm reads it, filtered by HONE_BENCH_TASKS_REPO).
//
//	HONE_BENCH_REPO=/path/to/django go test -run '^$' -bench RetrieveServed ./cmd/hone
func BenchmarkRetrieveServed(b *testing.B) {
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		b.Skip("set HONE_BENCH_REPO")
	}
	tasks, err := bench.EnvTasks("queryset union drops ordering when sliced")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	startServe(b, dir, serveBuild())
	call := func(task string) {
		c := retrieveCall{Root: repo, Task: task, Format: "json", Budget: 4000, MaxCycles: hone.DefaultMaxCycles,
			Threshold: hone.DefaultThreshold, MaxFiles: hone.DefaultMaxFiles}
		done, err := callServer(context.Background(), dir, "retrieve", c, io.Discard, io.Discard, nil)
		if !done || err != nil {
			b.Fatalf("not served: %v", err)
		}
	}
	call(tasks[0]) // the first call indexes
	call(tasks[0]) // the second settles the watches
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call(tasks[i%len(tasks)])
	}
}

// hone status says whether a hone serve answers, and of which build.
func TestStatusSaysServe(t *testing.T) {
	repo := filepath.Join("..", "..", "testdata", "repos", "login-throttle")
	dir := t.TempDir()
	if _, stderr, code := runOut(t, "index", "--no-history", "--no-server", "--repo", repo, "--index-dir", dir); code != 0 {
		t.Fatal(stderr)
	}
	status := func() string {
		t.Helper()
		out, stderr, code := runOut(t, "status", "--repo", repo, "--index-dir", dir)
		if code != 0 {
			t.Fatal(stderr)
		}
		return out
	}
	if out := status(); !strings.Contains(out, "serve:    none") {
		t.Errorf("no server: %s", out)
	}
	startServe(t, dir, serveBuild())
	if out := status(); !strings.Contains(out, fmt.Sprintf("serve:    hone serve (pid %d) answers", os.Getpid())) {
		t.Errorf("a server: %s", out)
	}
	if out, _, _ := runOut(t, "status", "--json", "--repo", repo, "--index-dir", dir); !strings.Contains(out, `"served": true`) {
		t.Errorf("a server, in JSON: %s", out)
	}
	// So for a repository with no index yet: the server answers for the
	// folder.
	fresh := t.TempDir()
	if out, _, _ := runOut(t, "status", "--repo", fresh, "--index-dir", dir); !strings.Contains(out, "index:    none yet") || !strings.Contains(out, "serve:    hone serve (pid") {
		t.Errorf("a server, no index yet: %s", out)
	}
	if out, _, _ := runOut(t, "status", "--json", "--repo", fresh, "--index-dir", dir); !strings.Contains(out, `"served": true`) || !strings.Contains(out, `"indexed": false`) {
		t.Errorf("a server, no index yet, in JSON: %s", out)
	}
}

// The long-running processes' log passes the redaction: its messages,
// its strings, its errors, and values of other types that print them (a
// client's log level, a list of its roots).
func TestRedactedLog(t *testing.T) {
	type level string
	for _, p := range redacttest.Formats(7)[:3] {
		var b strings.Builder
		log := redactedLog(&b, slog.LevelInfo)
		log.Info("read "+p.Text, "path", p.Text, "err", errors.New("open "+p.Text+": denied"), "n", 3,
			"level", level(p.Text), "roots", []string{"file:///src", p.Text})
		out := b.String()
		if strings.Contains(out, p.Secret) {
			t.Errorf("%s: the log holds the secret: %s", p.Name, out)
		}
		if !strings.Contains(out, "n=3") || !strings.Contains(out, "level=INFO") {
			t.Errorf("%s: the log lost what is no secret: %s", p.Name, out)
		}
	}
	var b strings.Builder
	redactedLog(&b, slog.LevelWarn).Info("quiet")
	if b.Len() != 0 {
		t.Errorf("below the level: %q", b.String())
	}
}

// A process hone starts in the background keeps the environment, but not
// HONE_CPUPROFILE: its profile would overwrite the command's.
func TestBackgroundEnv(t *testing.T) {
	t.Setenv("HONE_CPUPROFILE", filepath.Join(t.TempDir(), "cpu.prof"))
	t.Setenv("HONE_INDEX_DIR", "/somewhere")
	env := backgroundEnv()
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "HONE_CPUPROFILE=") }) {
		t.Errorf("HONE_CPUPROFILE passed on: %q", env)
	}
	if !slices.Contains(env, "HONE_INDEX_DIR=/somewhere") {
		t.Errorf("HONE_INDEX_DIR not passed on: %q", env)
	}
}

// The build's name has its parts one space apart, whether or not the
// build knows its commit (a test binary does not).
func TestServeBuildSpacing(t *testing.T) {
	b := serveBuild()
	if strings.Contains(b, "  ") || strings.TrimSpace(b) != b || !strings.HasPrefix(b, hone.Version+" ") {
		t.Errorf("serveBuild() = %q", b)
	}
}

// A served update tells the client how it goes, file by file, for its
// bar: a first index's, served, ends at its last file.
func TestServedProgress(t *testing.T) {
	repo := t.TempDir()
	for i := range 30 {
		if err := os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%02d.go", i)), []byte(fmt.Sprintf("package f\n\nfunc F%d() {}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	startServe(t, dir, serveBuild())
	for _, command := range []string{"index", "retrieve"} {
		var params any = indexCall{Root: repo, NoHistory: true}
		if command == "retrieve" {
			params = retrieveCall{Root: repo, Task: "F12 function", Format: "text", Budget: 8000, MaxCycles: 3, Threshold: 0.7, MaxFiles: 10, NoHistory: true}
			// A fresh index, for the retrieve's own update to be long.
			dir = t.TempDir()
			startServe(t, dir, serveBuild())
		}
		raw, err := json.Marshal(params)
		if err != nil {
			t.Fatal(err)
		}
		var heard []serve.Progress
		rep, err := serve.CallProgress(context.Background(), dir, serve.Request{Version: serveBuild(), Command: command, Params: raw, Env: readingEnv()}, func(p serve.Progress) {
			heard = append(heard, p)
		})
		if err != nil || rep.Error != "" || rep.Refused != "" {
			t.Fatalf("%s: %+v, %v", command, rep, err)
		}
		if len(heard) == 0 || heard[len(heard)-1].Done != 30 || heard[len(heard)-1].Total != 30 {
			t.Errorf("%s: progress heard %+v, want it to end at 30 of 30 files", command, heard)
		}
	}
}

// A command whose environment names other configuration than the
// server's (another GIT_CONFIG_GLOBAL, whose excludes file leaves a file
// out; a git hook's GIT_INDEX_FILE) is not served: it works alone, says
// why, and prints what it prints alone.
func TestServedOnlyTheSameEnvironment(t *testing.T) {
	repo := t.TempDir()
	for name, text := range map[string]string{
		"ocelot.py": "def ocelot_prism_lantern():\n    return 1\n",
		"other.py":  "def other_thing():\n    return 2\n",
	} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	dir := t.TempDir()
	calls := startServe(t, dir, serveBuild())
	excludes := filepath.Join(t.TempDir(), "excludes")
	config := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(excludes, []byte("ocelot.py\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("[core]\n\texcludesFile = "+excludes+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", config)
	args := []string{"retrieve", "--repo", repo, "--index-dir", dir, "--no-history", "--format", "json", "ocelot prism lantern"}
	served, servedErr, code := runOut(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, servedErr)
	}
	if calls.Load() != 0 || !strings.Contains(servedErr, "working without hone serve: the command's environment differs from the server's in GIT_CONFIG_GLOBAL") {
		t.Errorf("%d calls; stderr %q; want the call refused for GIT_CONFIG_GLOBAL", calls.Load(), servedErr)
	}
	alone, _, _ := runOut(t, append([]string{"retrieve", "--no-server"}, args[1:]...)...)
	if served != alone {
		t.Errorf("refused and alone differ:\n--- refused\n%s\n--- alone\n%s", served, alone)
	}
	if strings.Contains(served, `"path": "ocelot.py"`) {
		t.Errorf("the command's excludes file was not read: %s", served)
	}
}

// Outside git, a served retrieve says how many files of the folder it
// indexes, as one alone does.
func TestServedOutsideGit(t *testing.T) {
	root := t.TempDir()
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("m%d.py", i)), []byte(fmt.Sprintf("def token_expiry_%d():\n    return %d\n", i, i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	calls := startServe(t, dir, serveBuild())
	t.Chdir(root)
	_, stderr, code := runOut(t, "retrieve", "--index-dir", dir, "--no-history", "token expiry")
	if code != 0 || calls.Load() != 1 {
		t.Fatalf("exit %d, %d calls: %s", code, calls.Load(), stderr)
	}
	if !strings.Contains(stderr, "is not in a git repository") || !strings.Contains(stderr, "indexing 3 files of") {
		t.Errorf("served, outside git: %q", stderr)
	}
}
