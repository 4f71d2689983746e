package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/build"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The process-level tests: real hone processes, killed with SIGKILL at
// chosen moments or run side by side on one index. Each test builds the
// command once and runs it on a synthetic repository generated here, from a
// fixed seed.

// crashTasks are the tasks every comparison retrieves for.
var crashTasks = []string{
	"fix the session token refresh bug: expired tokens are not renewed by the auth middleware",
	"add rate limiting to the upload handler of the storage service, throttle large uploads",
	"invoice export drops the billing address when the report builder renders CSV",
}

// crashRepoFiles is the size of the synthetic repository of TestCrashSafety
// (about 6 MB): a cold "hone index" of it takes about 1.3 s on two idle
// cores. The kill points are fractions of the time measured.
const crashRepoFiles = 2600

// buildHone builds the hone command into a temporary directory.
// env, such as CGO_ENABLED=0, is added to the build's environment.
func buildHone(t *testing.T, env ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hone")
	goBuild(t, env, "-o", bin, "github.com/hone-tools/hone/cmd/hone")
	return bin
}

// goBuild runs go build with the arguments, in an environment with env
// added.
func goBuild(t *testing.T, env []string, args ...string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(build.Default.GOROOT, "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			t.Skip("no go command to build hone with")
		}
	}
	cmd := exec.Command(goBin, append([]string{"build"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// honeCmd is a hone process on repo, with its indexes in indexDir.
func honeCmd(bin, repo, indexDir string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HONE_INDEX_DIR="+indexDir)
	cmd.Dir = repo
	return cmd
}

// runHone runs hone to the end and fails the test unless it exits 0.
func runHone(t *testing.T, bin, repo, indexDir string, args ...string) (stdout string, elapsed time.Duration) {
	t.Helper()
	out, errOut, elapsed, err := execHone(bin, repo, indexDir, args...)
	if err != nil {
		t.Fatalf("hone %s (index dir %s): %v\nstderr:\n%s", strings.Join(args, " "), indexDir, err, tail(errOut))
	}
	return out, elapsed
}

func execHone(bin, repo, indexDir string, args ...string) (stdout, stderr string, elapsed time.Duration, err error) {
	cmd := honeCmd(bin, repo, indexDir, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err = cmd.Run()
	return o.String(), e.String(), time.Since(start), err
}

// tail shortens a process's output for a failure message: a Go crash's
// goroutine dump would bury the rest. Its start says what crashed.
func tail(s string) string {
	const keep = 3000
	if len(s) <= keep {
		return s
	}
	return s[:keep/2] + fmt.Sprintf("\n[... %d bytes left out ...]\n", len(s)-keep) + s[len(s)-keep/2:]
}

// killAfter starts hone, SIGKILLs it after d, and reports whether it was
// still running then.
func killAfter(t *testing.T, bin, repo, indexDir string, d time.Duration, args ...string) bool {
	t.Helper()
	cmd := honeCmd(bin, repo, indexDir, args...)
	var e bytes.Buffer
	cmd.Stderr = &e
	if err := cmd.Start(); err != nil {
		t.Fatalf("start hone %s: %v", strings.Join(args, " "), err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("hone %s exited before its kill point %v: %v\nstderr:\n%s", strings.Join(args, " "), d, err, tail(e.String()))
		}
		return false
	case <-time.After(d):
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Logf("kill hone: %v", err)
	}
	<-done
	return true
}

// retrieved is what the comparisons read of "hone retrieve --json".
type retrieved struct {
	Files   []retrievedFile `json:"files"`
	Ranking []struct {
		Path      string  `json:"path"`
		Relevance float64 `json:"relevance"`
	} `json:"ranking"`
}

type retrievedFile struct {
	Path           string   `json:"path"`
	Relevance      float64  `json:"relevance"`
	Reason         string   `json:"reason"`
	MissingContext []string `json:"missing_context"`
	Cycle          int      `json:"cycle"`
}

func (f retrievedFile) String() string {
	return fmt.Sprintf("%.4f %s (cycle %d)\n        reason:  %s\n        missing: %s",
		f.Relevance, f.Path, f.Cycle, f.Reason, strings.Join(f.MissingContext, "; "))
}

func parseRetrieved(out string) (retrieved, error) {
	var r retrieved
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("not one JSON object: %v", err)
	}
	if dec.More() {
		return r, fmt.Errorf("more than one JSON value")
	}
	return r, nil
}

// retrieveAll runs "hone retrieve --json" for every task on one index dir.
// Each run must exit 0 with a JSON result.
func retrieveAll(t *testing.T, bin, repo, indexDir string) []retrieved {
	t.Helper()
	var out []retrieved
	for i, task := range crashTasks {
		stdout, stderr, _, err := execHone(bin, repo, indexDir, "retrieve", "--json", "--repo", repo, task)
		if err != nil {
			t.Fatalf("task %d %q: hone retrieve failed on index dir %s: %v\nstderr:\n%s", i+1, task, indexDir, err, tail(stderr))
		}
		if stderr != "" {
			t.Logf("task %d: hone retrieve said on stderr: %s", i+1, strings.TrimSpace(stderr))
		}
		r, err := parseRetrieved(stdout)
		if err != nil {
			t.Fatalf("task %d %q: hone retrieve printed bad JSON: %v\n%s", i+1, task, err, tail(stdout))
		}
		out = append(out, r)
	}
	return out
}

// compareRetrieved reports every difference between the results on a test
// index and on a fresh one.
func compareRetrieved(t *testing.T, what string, got, want []retrieved) {
	t.Helper()
	for i := range crashTasks {
		var diffs []string
		g, w := got[i], want[i]
		n := max(len(g.Ranking), len(w.Ranking))
		for j := 0; j < n; j++ {
			var gs, ws string
			if j < len(g.Ranking) {
				gs = fmt.Sprintf("%.4f %s", g.Ranking[j].Relevance, g.Ranking[j].Path)
			}
			if j < len(w.Ranking) {
				ws = fmt.Sprintf("%.4f %s", w.Ranking[j].Relevance, w.Ranking[j].Path)
			}
			if j < len(g.Ranking) && j < len(w.Ranking) && g.Ranking[j] == w.Ranking[j] {
				continue
			}
			diffs = append(diffs, fmt.Sprintf("  ranking[%d]: got %q, fresh index %q", j, gs, ws))
		}
		n = max(len(g.Files), len(w.Files))
		for j := 0; j < n; j++ {
			var gs, ws string = "(none)", "(none)"
			if j < len(g.Files) {
				gs = g.Files[j].String()
			}
			if j < len(w.Files) {
				ws = w.Files[j].String()
			}
			if gs != ws {
				diffs = append(diffs, fmt.Sprintf("  files[%d]:\n    got:   %s\n    fresh: %s", j, gs, ws))
			}
		}
		if len(diffs) > 0 {
			if len(diffs) > 12 {
				diffs = append(diffs[:12], fmt.Sprintf("  ... and %d more differences", len(diffs)-12))
			}
			t.Errorf("%s, task %d %q: the result differs from a fresh index's (%d vs %d ranked, %d vs %d files):\n%s",
				what, i+1, crashTasks[i], len(g.Ranking), len(w.Ranking), len(g.Files), len(w.Files), strings.Join(diffs, "\n"))
		}
	}
}

// indexStatus is what the comparisons read of "hone status --json".
type indexStatus struct {
	Files  int   `json:"files"`
	Source int64 `json:"source_bytes"`
}

func statusOf(t *testing.T, bin, repo, indexDir string) indexStatus {
	t.Helper()
	out, _ := runHone(t, bin, repo, indexDir, "status", "--json", "--repo", repo)
	var st indexStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("hone status --json: %v\n%s", err, out)
	}
	return st
}

// dbFiles describes the database files in an index dir, for the log.
func dbFiles(dir string) string {
	var parts []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				parts = append(parts, fmt.Sprintf("%s %d B", filepath.Base(p), fi.Size()))
			}
		}
		return nil
	})
	if len(parts) == 0 {
		return "no files"
	}
	return strings.Join(parts, ", ")
}

// copyDir copies a directory of plain files, recursively.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", from, err)
	}
}

// checkAgainst retrieves every task on indexDir, which a killed process
// left, and compares with the fresh index's results and status.
func checkAgainst(t *testing.T, bin, repo, indexDir, what string, want []retrieved, wantSt indexStatus) {
	t.Helper()
	got := retrieveAll(t, bin, repo, indexDir)
	compareRetrieved(t, what, got, want)
	if st := statusOf(t, bin, repo, indexDir); st != wantSt {
		t.Errorf("%s: after the retrieves the index holds %d files (%d bytes of source), a fresh one %d (%d bytes)",
			what, st.Files, st.Source, wantSt.Files, wantSt.Source)
	}
}

// TestCrashSafety kills "hone index" at several points of a cold index, an
// incremental update and a rebuild; the next "hone retrieve" must repair the
// index by itself and answer exactly as on a fresh index.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone and kills it mid-index: skipped in short mode")
	}
	start := time.Now()
	bin := buildHone(t)
	repo := filepath.Join(t.TempDir(), "repo")
	g := newRepoGen(20240611)
	g.generate(t, repo, crashRepoFiles)
	t.Logf("generated %d files (%d KB) in %v", len(g.files), g.bytes()/1024, time.Since(start).Round(time.Millisecond))

	// The fresh index, never killed: its results are the reference, and
	// its time sets the kill points.
	fresh := t.TempDir()
	out, cold := runHone(t, bin, repo, fresh, "index", "--repo", repo)
	t.Logf("cold index: %v: %s", cold.Round(time.Millisecond), strings.TrimSpace(out))
	want := retrieveAll(t, bin, repo, fresh)
	wantSt := statusOf(t, bin, repo, fresh)
	for i, r := range want {
		if len(r.Ranking) == 0 || len(r.Files) == 0 {
			t.Fatalf("task %d %q: the fresh index finds nothing (%d ranked, %d files): the synthetic repository does not fit the task",
				i+1, crashTasks[i], len(r.Ranking), len(r.Files))
		}
	}
	// A copy of the complete index: where the rebuilds and the
	// incremental updates below start from.
	template := t.TempDir()
	copyDir(t, fresh, template)

	killPoint := func(name string, frac float64, base time.Duration, prepare func(dir string), args ...string) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if prepare != nil {
				prepare(dir)
			}
			d := time.Duration(frac * float64(base))
			killed := killAfter(t, bin, repo, dir, d, append(args, "--repo", repo)...)
			what := fmt.Sprintf("hone %s killed after %v (%.0f%% of %v)", strings.Join(args, " "), d.Round(time.Millisecond), frac*100, base.Round(time.Millisecond))
			if !killed {
				what = fmt.Sprintf("hone %s, done before its kill point %v", strings.Join(args, " "), d.Round(time.Millisecond))
			}
			t.Logf("%s; left %s", what, dbFiles(dir))
			checkAgainst(t, bin, repo, dir, what, want, wantSt)
		})
	}

	// A cold index, killed.
	for _, frac := range []float64{0.05, 0.2, 0.45, 0.7, 0.9} {
		killPoint(fmt.Sprintf("cold-%.0fpct", frac*100), frac, cold, nil, "index")
	}
	// A rebuild of a complete index, killed.
	for _, frac := range []float64{0.1, 0.6} {
		killPoint(fmt.Sprintf("rebuild-%.0fpct", frac*100), frac, cold, func(dir string) { copyDir(t, template, dir) }, "index", "--rebuild")
	}
	// A retrieve that indexes a repository for the first time, killed.
	killPoint("retrieve-cold-50pct", 0.5, cold, nil, "retrieve", "--json", crashTasks[0])
	if t.Failed() {
		return
	}

	// An incremental update: modify, delete and add files, then index
	// from a copy of the complete index.
	changed, err := g.change(repo, 300, 50, 50)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("changed the repository: %s", changed)
	fresh = t.TempDir()
	runHone(t, bin, repo, fresh, "index", "--repo", repo)
	want = retrieveAll(t, bin, repo, fresh)
	wantSt = statusOf(t, bin, repo, fresh)

	t.Run("incremental-complete", func(t *testing.T) {
		// Never killed: an update must answer as a fresh index does, or
		// the kills below prove nothing.
		dir := t.TempDir()
		copyDir(t, template, dir)
		var out string
		out, cold = runHone(t, bin, repo, dir, "index", "--repo", repo)
		t.Logf("incremental update: %v: %s", cold.Round(time.Millisecond), strings.TrimSpace(out))
		checkAgainst(t, bin, repo, dir, "a complete incremental update", want, wantSt)
	})
	for _, frac := range []float64{0.25, 0.5, 0.65, 0.8, 0.95} {
		killPoint(fmt.Sprintf("incremental-%.0fpct", frac*100), frac, cold, func(dir string) { copyDir(t, template, dir) }, "index")
	}
	t.Logf("TestCrashSafety took %v", time.Since(start).Round(time.Millisecond))
}

// TestConcurrentProcesses runs retrieving processes while another one
// re-indexes the same index over and over; none may fail.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone and runs it in several processes: skipped in short mode")
	}
	start := time.Now()
	bin := buildHone(t)
	repo := filepath.Join(t.TempDir(), "repo")
	g := newRepoGen(7)
	g.generate(t, repo, 700)
	dir := t.TempDir()
	runHone(t, bin, repo, dir, "index", "--repo", repo)

	const (
		writerFor    = 5 * time.Second // then the writer stops, after 2 rounds at least
		maxRounds    = 20
		minRetrieves = 3
		maxRetrieves = 25
	)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var (
		mu       sync.Mutex
		failures []string
		counts   = map[string]int{}
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	count := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		counts[what]++
	}
	run := func(args ...string) (string, string, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "HONE_INDEX_DIR="+dir)
		cmd.Dir = repo
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		return o.String(), e.String(), err
	}

	writerStart := time.Now()
	writerDone := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		// The writer: rebuilds, and updates after changing files.
		defer wg.Done()
		defer close(writerDone)
		for i := 0; i < maxRounds && (i < 2 || time.Since(writerStart) < writerFor) && ctx.Err() == nil; i++ {
			args := []string{"index", "--repo", repo, "--rebuild"}
			what := "index --rebuild"
			if i%2 == 1 {
				changed, err := g.change(repo, 40, 5, 5)
				if err != nil {
					fail("writer, round %d: change the repository: %v", i+1, err)
					return
				}
				args, what = args[:3], "index after changing "+changed
			}
			if _, stderr, err := run(args...); err != nil {
				fail("writer, round %d: hone %s: %v\nstderr:\n%s", i+1, what, err, tail(stderr))
				return
			}
			count("index")
		}
	}()
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task := crashTasks[r]
			for i := 0; i < maxRetrieves && ctx.Err() == nil; i++ {
				if i >= minRetrieves {
					select {
					case <-writerDone:
						return
					default:
					}
				}
				stdout, stderr, err := run("retrieve", "--json", "--repo", repo, task)
				count("retrieve")
				if err != nil {
					fail("retriever %d, run %d, task %q: hone retrieve: %v\nstderr:\n%s", r+1, i+1, task, err, tail(stderr))
					continue
				}
				res, err := parseRetrieved(stdout)
				switch {
				case err != nil:
					fail("retriever %d, run %d, task %q: %v\nstdout:\n%s", r+1, i+1, task, err, tail(stdout))
				case len(res.Ranking) == 0:
					fail("retriever %d, run %d, task %q: empty ranking (stderr: %s)", r+1, i+1, task, tail(strings.TrimSpace(stderr)))
				}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Errorf("the processes did not finish within %v", 90*time.Second)
	}
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("%d index runs and %d retrieves side by side in %v (the test: %v)", counts["index"], counts["retrieve"],
		time.Since(writerStart).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// ---- The synthetic repository ----

// repoGen generates a deterministic repository of source files in several
// languages: identifiers built from a vocabulary, functions, classes,
// comments, imports and calls between files.
type repoGen struct {
	rng   *rand.Rand
	files map[string]int // path -> size
	paths []string       // in creation order
	funcs []string       // names defined so far, for calls
}

func newRepoGen(seed int64) *repoGen {
	return &repoGen{rng: rand.New(rand.NewSource(seed)), files: map[string]int{}}
}

var (
	genAreas = []string{
		"auth", "session", "billing", "invoice", "storage", "upload", "search", "catalog", "orders", "payments",
		"notify", "email", "metrics", "scheduler", "queue", "webhook", "report", "export", "profile", "account",
		"gateway", "router", "cache", "audit", "inventory", "shipping", "pricing", "ledger", "sync", "config",
	}
	genNouns = []string{
		"token", "session", "user", "account", "invoice", "address", "order", "payment", "upload", "file",
		"bucket", "chunk", "request", "response", "handler", "middleware", "limiter", "quota", "window",
		"record", "entry", "event", "message", "queue", "worker", "job", "task", "schedule", "report",
		"builder", "renderer", "template", "row", "column", "cursor", "page", "filter", "query", "index",
		"cache", "store", "repository", "client", "server", "connection", "pool", "config", "option",
		"policy", "role", "permission", "credential", "secret", "signature", "digest", "header", "cookie",
		"route", "endpoint", "gateway", "proxy", "backend", "shard", "replica", "snapshot", "ledger",
		"balance", "currency", "price", "discount", "coupon", "cart", "item", "product", "stock",
		"shipment", "carrier", "label", "notification", "channel", "subscriber", "webhook", "retry",
		"backoff", "deadline", "timeout", "lease", "lock", "manifest", "schema", "migration", "metric",
		"counter", "histogram", "span", "trace", "logger", "audit", "tenant", "region", "profile",
	}
	genVerbs = []string{
		"get", "set", "load", "save", "create", "update", "delete", "find", "list", "parse", "validate",
		"build", "render", "compute", "handle", "fetch", "refresh", "renew", "expire", "revoke", "issue",
		"encode", "decode", "flush", "merge", "resolve", "register", "dispatch", "apply", "schedule",
		"retry", "throttle", "limit", "export", "import", "sync", "verify", "sign", "charge", "refund",
		"reserve", "release", "notify", "publish", "consume", "enqueue", "drain", "compact", "rotate",
	}
	genAdjs = []string{
		"pending", "active", "stale", "expired", "default", "max", "min", "current", "next", "previous",
		"remote", "local", "cached", "signed", "raw", "partial", "total", "daily", "monthly", "large",
	}
	genProse = []string{
		"the", "a", "this", "when", "if", "before", "after", "so", "that", "each", "every", "only", "not",
		"is", "are", "be", "was", "it", "its", "we", "our", "callers", "must", "should", "may", "never",
		"returns", "keeps", "checks", "writes", "reads", "holds", "uses", "skips", "waits", "fails",
		"with", "for", "from", "into", "on", "by", "of", "to", "in", "and", "or", "until", "unless",
	}
	genLangs = []string{"go", "go", "go", "py", "py", "ts", "ts", "java", "rs", "rb"}
)

func (g *repoGen) pick(words []string) string { return words[g.rng.Intn(len(words))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// sentence is a comment's prose, mixing plain words and vocabulary.
func (g *repoGen) sentence() string {
	n := 6 + g.rng.Intn(10)
	w := make([]string, n)
	for i := range w {
		switch g.rng.Intn(5) {
		case 0:
			w[i] = g.pick(genNouns)
		case 1:
			w[i] = g.pick(genVerbs) + "s"
		case 2:
			w[i] = g.pick(genAdjs)
		default:
			w[i] = g.pick(genProse)
		}
	}
	return title(strings.Join(w, " ")) + "."
}

// ident is an identifier in the words of the vocabulary: refreshToken,
// renew_session_lease.
func (g *repoGen) ident(snake, exported bool) string {
	parts := []string{g.pick(genVerbs)}
	if g.rng.Intn(3) == 0 {
		parts = append(parts, g.pick(genAdjs))
	}
	parts = append(parts, g.pick(genNouns))
	if g.rng.Intn(2) == 0 {
		parts = append(parts, g.pick(genNouns))
	}
	if snake {
		return strings.Join(parts, "_")
	}
	for i := range parts {
		if i > 0 || exported {
			parts[i] = title(parts[i])
		}
	}
	return strings.Join(parts, "")
}

func (g *repoGen) typeName() string {
	n := title(g.pick(genNouns))
	if g.rng.Intn(2) == 0 {
		n = title(g.pick(genAdjs)) + n
	}
	return n + title(g.pick([]string{"manager", "service", "store", "client", "handler", "builder", "worker", "provider"}))
}

// callee is a function defined earlier, to call; or a fresh name.
func (g *repoGen) callee() string {
	if len(g.funcs) > 0 && g.rng.Intn(3) > 0 {
		return g.funcs[g.rng.Intn(len(g.funcs))]
	}
	return g.ident(false, false)
}

// newPath invents a path for a file of lang that is not taken yet.
func (g *repoGen) newPath(lang string) string {
	area := g.pick(genAreas)
	n1, n2 := g.pick(genNouns), g.pick(genNouns)
	test := g.rng.Intn(12) == 0
	var p string
	switch lang {
	case "go":
		p = fmt.Sprintf("internal/%s/%s_%s.go", area, n1, n2)
		if test {
			p = strings.TrimSuffix(p, ".go") + "_test.go"
		}
	case "py":
		p = fmt.Sprintf("services/%s/%s_%s.py", area, n1, n2)
		if test {
			p = fmt.Sprintf("services/%s/tests/test_%s.py", area, n1)
		}
	case "ts":
		p = fmt.Sprintf("web/src/%s/%s%s.ts", area, n1, title(n2))
		if test {
			p = strings.TrimSuffix(p, ".ts") + ".test.ts"
		}
	case "java":
		p = fmt.Sprintf("server/src/main/java/com/acme/%s/%s%s.java", area, title(n1), title(n2))
	case "rs":
		p = fmt.Sprintf("engine/src/%s/%s_%s.rs", area, n1, n2)
	case "rb":
		p = fmt.Sprintf("app/%s/%s_%s.rb", area, n1, n2)
	}
	if g.rng.Intn(6) == 0 {
		// some files sit one folder deeper
		p = filepath.ToSlash(filepath.Join(filepath.Dir(p), g.pick(genNouns), filepath.Base(p)))
	}
	base := p
	for i := 2; ; i++ {
		if _, taken := g.files[p]; !taken {
			return p
		}
		ext := filepath.Ext(base)
		p = fmt.Sprintf("%s%d%s", strings.TrimSuffix(base, ext), i, ext)
	}
}

// source generates the content of a file.
func (g *repoGen) source(p string) string {
	var b strings.Builder
	area := filepath.Base(filepath.Dir(p))
	nfuncs := 2 + g.rng.Intn(6)
	body := func(indent, end string, snake bool) {
		for range 2 + g.rng.Intn(7) {
			switch g.rng.Intn(5) {
			case 0:
				fmt.Fprintf(&b, "%s// %s\n", indent, g.sentence())
			case 1:
				fmt.Fprintf(&b, "%sif %s(%s) {\n%s\treturn %s(%s)%s\n%s}\n", indent, g.callee(), g.pick(genNouns), indent,
					g.callee(), g.pick(genNouns), end, indent)
			default:
				v := g.pick(genNouns)
				if !snake {
					v += title(g.pick(genNouns))
				} else {
					v += "_" + g.pick(genNouns)
				}
				fmt.Fprintf(&b, "%s%s = %s(%s, %q)%s\n", indent, v, g.callee(), g.pick(genNouns), g.pick(genAdjs)+" "+g.pick(genNouns), end)
			}
		}
	}
	define := func(name string) string {
		g.funcs = append(g.funcs, name)
		return name
	}
	switch filepath.Ext(p) {
	case ".go":
		fmt.Fprintf(&b, "// Package %s %s\npackage %s\n\nimport (\n\t\"context\"\n\t\"example.com/acme/internal/%s\"\n)\n\n",
			area, strings.ToLower(g.sentence()), area, g.pick(genAreas))
		typ := g.typeName()
		fmt.Fprintf(&b, "// %s %s\ntype %s struct {\n", typ, strings.ToLower(g.sentence()), typ)
		for range 2 + g.rng.Intn(4) {
			fmt.Fprintf(&b, "\t%s %s\n", g.pick(genNouns)+title(g.pick(genNouns)), g.pick([]string{"string", "int", "time.Duration", "[]byte", "*" + g.typeName()}))
		}
		b.WriteString("}\n\n")
		for range nfuncs {
			name := define(g.ident(false, g.rng.Intn(2) == 0))
			fmt.Fprintf(&b, "// %s %s\nfunc (s *%s) %s(ctx context.Context, %s string) error {\n", name, strings.ToLower(g.sentence()), typ, name, g.pick(genNouns))
			body("\t", "", false)
			b.WriteString("\treturn nil\n}\n\n")
		}
	case ".py":
		fmt.Fprintf(&b, "\"\"\"%s\"\"\"\n\nfrom %s.%s import %s\n\n\n", g.sentence(), g.pick(genAreas), g.pick(genNouns), g.ident(true, false))
		typ := g.typeName()
		fmt.Fprintf(&b, "class %s:\n    \"\"\"%s\"\"\"\n\n", typ, g.sentence())
		for range nfuncs {
			name := define(g.ident(true, false))
			fmt.Fprintf(&b, "    def %s(self, %s, %s=None):\n        # %s\n", name, g.pick(genNouns), g.pick(genNouns), g.sentence())
			for range 2 + g.rng.Intn(5) {
				fmt.Fprintf(&b, "        %s_%s = %s(%s, \"%s\")\n", g.pick(genNouns), g.pick(genNouns), g.callee(), g.pick(genNouns), g.pick(genAdjs))
			}
			fmt.Fprintf(&b, "        return %s\n\n", g.pick(genNouns))
		}
	case ".ts":
		fmt.Fprintf(&b, "/** %s */\nimport { %s } from '../%s/%s';\n\n", g.sentence(), g.ident(false, false), g.pick(genAreas), g.pick(genNouns))
		typ := g.typeName()
		fmt.Fprintf(&b, "export interface %sOptions {\n  %s: string;\n  %s?: number;\n}\n\n", typ, g.pick(genNouns), g.pick(genAdjs)+title(g.pick(genNouns)))
		fmt.Fprintf(&b, "/** %s */\nexport class %s {\n", g.sentence(), typ)
		for range nfuncs {
			name := define(g.ident(false, false))
			fmt.Fprintf(&b, "  /** %s */\n  async %s(%s: string): Promise<void> {\n", g.sentence(), name, g.pick(genNouns))
			body("    ", ";", false)
			b.WriteString("  }\n\n")
		}
		b.WriteString("}\n")
	case ".java":
		typ := strings.TrimSuffix(filepath.Base(p), ".java")
		fmt.Fprintf(&b, "package com.acme.%s;\n\nimport com.acme.%s.%s;\n\n/**\n * %s\n */\npublic class %s {\n", area, g.pick(genAreas), g.typeName(), g.sentence(), typ)
		for range nfuncs {
			name := define(g.ident(false, false))
			fmt.Fprintf(&b, "    /** %s */\n    public void %s(String %s) {\n", g.sentence(), name, g.pick(genNouns))
			body("        ", ";", false)
			b.WriteString("    }\n\n")
		}
		b.WriteString("}\n")
	case ".rs":
		typ := g.typeName()
		fmt.Fprintf(&b, "//! %s\n\nuse crate::%s::%s;\n\n/// %s\npub struct %s {\n    %s: String,\n}\n\nimpl %s {\n", g.sentence(), g.pick(genAreas), g.typeName(), g.sentence(), typ, g.pick(genNouns), typ)
		for range nfuncs {
			name := define(g.ident(true, false))
			fmt.Fprintf(&b, "    /// %s\n    pub fn %s(&self, %s: &str) -> Result<(), Error> {\n", g.sentence(), name, g.pick(genNouns))
			body("        ", ";", true)
			b.WriteString("        Ok(())\n    }\n\n")
		}
		b.WriteString("}\n")
	case ".rb":
		fmt.Fprintf(&b, "# %s\nrequire '%s/%s'\n\nclass %s\n", g.sentence(), g.pick(genAreas), g.pick(genNouns), g.typeName())
		for range nfuncs {
			name := define(g.ident(true, false))
			fmt.Fprintf(&b, "  # %s\n  def %s(%s)\n", g.sentence(), name, g.pick(genNouns))
			for range 2 + g.rng.Intn(5) {
				fmt.Fprintf(&b, "    %s = %s(%s)\n", g.pick(genNouns), g.callee(), g.pick(genNouns))
			}
			b.WriteString("  end\n\n")
		}
		b.WriteString("end\n")
	}
	return b.String()
}

func (g *repoGen) write(root, p, content string) error {
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		return err
	}
	if _, ok := g.files[p]; !ok {
		g.paths = append(g.paths, p)
	}
	g.files[p] = len(content)
	return nil
}

// generate writes n source files, a README and a few docs under root.
func (g *repoGen) generate(t *testing.T, root string, n int) {
	t.Helper()
	for range n {
		p := g.newPath(g.pick(genLangs))
		if err := g.write(root, p, g.source(p)); err != nil {
			t.Fatal(err)
		}
	}
	var readme strings.Builder
	readme.WriteString("# acme\n\n")
	for range 20 {
		readme.WriteString(g.sentence() + "\n")
	}
	if err := g.write(root, "README.md", readme.String()); err != nil {
		t.Fatal(err)
	}
	if err := g.write(root, ".gitignore", "/build/\n*.log\n"); err != nil {
		t.Fatal(err)
	}
}

// change modifies, deletes and adds files, and says what it did. A modified
// file grows, so that its size changes even where the clock is coarse.
func (g *repoGen) change(root string, modify, del, add int) (string, error) {
	live := make([]string, 0, len(g.paths))
	for _, p := range g.paths {
		if _, ok := g.files[p]; ok && strings.Contains(p, "/") {
			live = append(live, p)
		}
	}
	sort.Strings(live)
	g.rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	modify, del = min(modify, len(live)), min(del, max(0, len(live)-modify))
	for _, p := range live[:modify] {
		content := g.source(p)
		for len(content) <= g.files[p] {
			content += "\n// " + g.sentence() + "\n"
		}
		if err := g.write(root, p, content); err != nil {
			return "", err
		}
	}
	for _, p := range live[modify : modify+del] {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return "", err
		}
		delete(g.files, p)
	}
	for range add {
		p := g.newPath(g.pick(genLangs))
		if err := g.write(root, p, g.source(p)); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%d modified, %d deleted, %d added", modify, del, add), nil
}

func (g *repoGen) bytes() int {
	n := 0
	for _, s := range g.files {
		n += s
	}
	return n
}
