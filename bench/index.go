// Package bench measures hone: the index's speed and size on a real
// repository, and retrieval quality on benchmark data.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
)

// IndexConfig says what IndexBench measures.
type IndexConfig struct {
	// GitDir is a git directory (a bare mirror will do) holding Rev and Rev2.
	GitDir string
	// Rev is checked out and indexed; Rev2, a commit some files away, is
	// checked out to time an incremental update. Rev2 may be empty.
	Rev, Rev2 string
	// Exe is the hone binary, run for the cold indexes so that their peak
	// memory is their own.
	Exe string
	// Tasks are timed retrieves on the warm index.
	Tasks []string
	// Runs is how many times each measure is taken; the median is reported.
	Runs int
	// Work is a scratch directory; empty means a temporary one.
	Work string
	// Peer, if set, is a command run on the checkout for a side-by-side
	// cold index (e.g. "zoekt-index -index {out} {repo}").
	Peer string
	// Log receives progress lines.
	Log io.Writer
}

// IndexReport is what IndexBench measured. Durations are medians.
type IndexReport struct {
	Rev, Rev2   string
	Files       int
	SourceBytes int64
	IndexBytes  int64
	Cold        time.Duration
	ColdRSS     int64 // peak resident set of the cold index, bytes
	NoChange    time.Duration
	Edit        time.Duration // an update after one line appended to one file
	EditPath    string        // that file
	Changed     int           // files that differ between Rev and Rev2
	Checkout    time.Duration
	Retrieve    Latency
	Peer        *PeerReport `json:",omitempty"`
}

// PeerReport is the side-by-side cold index of a peer tool.
type PeerReport struct {
	Command string
	Cold    time.Duration
	RSS     int64
}

// Latency summarises retrieve times.
type Latency struct {
	N           int
	Median, P90 time.Duration
}

// IndexBench checks Rev out into a scratch directory and measures: cold
// indexes (wall time and peak memory), updates with nothing changed,
// updates across a checkout of Rev2 and back, and retrieves on the warm
// index.
func IndexBench(ctx context.Context, cfg IndexConfig) (*IndexReport, error) {
	if cfg.Runs < 1 {
		cfg.Runs = 3
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	work := cfg.Work
	if work == "" {
		dir, err := os.MkdirTemp("", "hone-bench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	co := &checkout{gitDir: cfg.GitDir, tree: filepath.Join(work, "tree"), index: filepath.Join(work, "git-index")}
	if err := co.to(ctx, "", cfg.Rev); err != nil {
		return nil, err
	}
	rep := &IndexReport{Rev: cfg.Rev, Rev2: cfg.Rev2}
	idxDir := filepath.Join(work, "index")

	// Cold indexes, each in its own process.
	var colds, peers []time.Duration
	var rss []int64
	for i := 0; i < cfg.Runs; i++ {
		os.RemoveAll(idxDir)
		d, peak, err := runMeasured(ctx, cfg.Exe, "index", "--repo", co.tree, "--index-dir", idxDir)
		if err != nil {
			return nil, fmt.Errorf("cold index: %w", err)
		}
		logf("cold index %d: %s, peak %s", i+1, d.Round(time.Millisecond), mb(peak))
		colds = append(colds, d)
		rss = append(rss, peak)
		if cfg.Peer != "" {
			out := filepath.Join(work, "peer")
			os.RemoveAll(out)
			cmd := strings.NewReplacer("{out}", out, "{repo}", co.tree).Replace(cfg.Peer)
			f := strings.Fields(cmd)
			pd, ppeak, err := runMeasured(ctx, f[0], f[1:]...)
			if err != nil {
				return nil, fmt.Errorf("peer: %w", err)
			}
			logf("peer cold index %d: %s, peak %s", i+1, pd.Round(time.Millisecond), mb(ppeak))
			if rep.Peer == nil {
				rep.Peer = &PeerReport{Command: cmd}
			}
			peers = append(peers, pd)
			rep.Peer.RSS = max(rep.Peer.RSS, ppeak)
		}
	}
	rep.Cold = median(colds)
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	rep.ColdRSS = rss[len(rss)/2]
	if rep.Peer != nil {
		rep.Peer.Cold = median(peers)
	}

	opts := index.Options{Dir: idxDir}
	update := func() (time.Duration, index.Stats, error) {
		start := time.Now()
		ix, err := index.Open(ctx, co.tree, opts)
		if err != nil {
			return 0, index.Stats{}, err
		}
		defer ix.Close()
		st, err := ix.Update(ctx, nil)
		return time.Since(start), st, err
	}
	var nochange []time.Duration
	for i := 0; i < 2*cfg.Runs+1; i++ {
		d, _, err := update()
		if err != nil {
			return nil, err
		}
		nochange = append(nochange, d)
	}
	rep.NoChange = median(nochange)
	logf("no-change update: %s", rep.NoChange.Round(time.Millisecond))

	ix, err := index.Open(ctx, co.tree, opts)
	if err != nil {
		return nil, err
	}
	st, err := ix.Status(ctx)
	if err == nil {
		err = ix.Err()
	}
	target := editTarget(ix)
	ix.Close()
	if err != nil {
		return nil, err
	}
	rep.Files, rep.SourceBytes, rep.IndexBytes = st.Files, st.Source, st.Bytes

	// One edit, as a retrieve right after it meets it: a line appended
	// to the largest file of the main language, then the file restored.
	if p := target; p != "" {
		abs := filepath.Join(co.tree, filepath.FromSlash(p))
		orig, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("edit update: %w", err)
		}
		var times []time.Duration
		for i := 0; i < 2*cfg.Runs+1; i++ {
			if err := os.WriteFile(abs, fmt.Appendf(bytes.Clone(orig), "\n// hone bench edit %d\n", i), 0o644); err != nil {
				return nil, fmt.Errorf("edit update: %w", err)
			}
			d, s, err := update()
			if err != nil {
				return nil, err
			}
			if s.Changed != 1 {
				return nil, fmt.Errorf("edit update: %d files changed, want the one edited (%s)", s.Changed, redact.QuotePath(p))
			}
			times = append(times, d)
		}
		if err := os.WriteFile(abs, orig, 0o644); err != nil {
			return nil, fmt.Errorf("edit update: %w", err)
		}
		if _, _, err := update(); err != nil {
			return nil, err
		}
		rep.Edit, rep.EditPath = median(times), p
		logf("edit update (%s): %s", redact.QuotePath(p), rep.Edit.Round(time.Millisecond))
	}

	if cfg.Rev2 != "" {
		var times []time.Duration
		for i := 0; i < cfg.Runs; i++ {
			for _, step := range [][2]string{{cfg.Rev, cfg.Rev2}, {cfg.Rev2, cfg.Rev}} {
				if err := co.to(ctx, step[0], step[1]); err != nil {
					return nil, err
				}
				d, s, err := update()
				if err != nil {
					return nil, err
				}
				rep.Changed = max(rep.Changed, s.Added+s.Changed+s.Deleted)
				times = append(times, d)
				logf("update %s -> %s: %d files, %s", short(step[0]), short(step[1]), s.Added+s.Changed+s.Deleted, d.Round(time.Millisecond))
			}
		}
		rep.Checkout = median(times)
	}

	if len(cfg.Tasks) > 0 {
		var times []time.Duration
		hopts := hone.Options{IndexDir: idxDir, GitDir: cfg.GitDir, Rev: cfg.Rev}
		for i, task := range cfg.Tasks {
			start := time.Now()
			if _, err := retrieve.Retrieve(ctx, co.tree, task, hopts); err != nil {
				return nil, fmt.Errorf("retrieve task %d: %w", i+1, err)
			}
			times = append(times, time.Since(start))
		}
		rep.Retrieve = latency(times)
		logf("retrieve: median %s, p90 %s over %d tasks", rep.Retrieve.Median.Round(time.Millisecond), rep.Retrieve.P90.Round(time.Millisecond), len(times))
	}
	return rep, nil
}

// checkout keeps a work tree of a git directory at a revision, with its own
// index file, so that the git directory itself is not changed.
type checkout struct {
	gitDir, tree, index string
}

// to moves the tree from revision from ("" for an empty tree) to to.
func (c *checkout) to(ctx context.Context, from, to string) error {
	if err := os.MkdirAll(c.tree, 0o755); err != nil {
		return err
	}
	var err error
	if from != "" {
		// A two-tree merge refuses files whose stat data the index has
		// not caught up with (a file written in the second the index
		// was): refresh it first, and start afresh if it still refuses.
		c.git(ctx, nil, "update-index", "-q", "--refresh") // exits 1 when a file differs: read-tree says which
		_, err = c.git(ctx, nil, "read-tree", "-u", "-m", from, to)
	}
	if from == "" || err != nil {
		_, err = c.git(ctx, nil, "read-tree", "-u", "--reset", to)
	}
	if err != nil {
		// A snapshot can lack a large file's blob: check out the rest.
		if perr := c.partial(ctx, to); perr != nil {
			return fmt.Errorf("check out %s: %v; without the missing files: %v", to, err, perr)
		}
	}
	return nil
}

// partial checks a commit out afresh without the files whose blobs the
// git directory lacks.
func (c *checkout) partial(ctx context.Context, to string) error {
	list, err := c.git(ctx, nil, "ls-tree", "-r", "--full-tree", to)
	if err != nil {
		return err
	}
	var shas, paths []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		meta, p, ok := strings.Cut(line, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
			shas, paths = append(shas, f[2]), append(paths, p)
		}
	}
	check, err := c.git(ctx, strings.NewReader(strings.Join(shas, "\n")+"\n"), "cat-file", "--batch-check")
	if err != nil {
		return err
	}
	var missing []string
	for i, line := range strings.Split(strings.TrimSpace(check), "\n") {
		if strings.HasSuffix(line, " missing") && i < len(paths) {
			missing = append(missing, paths[i])
		}
	}
	if len(missing) == 0 {
		return fmt.Errorf("no blob is missing")
	}
	if err := os.RemoveAll(c.tree); err != nil {
		return err
	}
	if err := os.MkdirAll(c.tree, 0o755); err != nil {
		return err
	}
	if _, err := c.git(ctx, nil, "read-tree", "--reset", to); err != nil {
		return err
	}
	if _, err := c.git(ctx, nil, append([]string{"update-index", "--force-remove", "--"}, missing...)...); err != nil {
		return err
	}
	_, err = c.git(ctx, nil, "checkout-index", "-a", "-f")
	return err
}

// git runs a git command on the checkout's git directory, work tree and
// index, and returns its output.
func (c *checkout) git(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", c.gitDir, "--work-tree", c.tree}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+c.index)
	cmd.Dir = c.tree
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// runMeasured runs a command and returns its wall time and peak RSS.
func runMeasured(ctx context.Context, name string, args ...string) (time.Duration, int64, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	return time.Since(start), peakRSS(cmd.ProcessState), nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func latency(ds []time.Duration) Latency {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	p90 := s[min(len(s)-1, (len(s)*9+9)/10-1)]
	return Latency{N: len(s), Median: s[len(s)/2], P90: p90}
}

func mb(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/(1<<20)) }

func short(rev string) string {
	if len(rev) > 10 {
		return rev[:10]
	}
	return rev
}

// EnvTasks are the tasks a Go benchmark of a warm path takes in turn: at
// most 20 read from the file HONE_BENCH_TASKS names (ReadTasks, those of
// the repository HONE_BENCH_TASKS_REPO), else the one task given.
func EnvTasks(task string) ([]string, error) {
	f := os.Getenv("HONE_BENCH_TASKS")
	if f == "" {
		return []string{task}, nil
	}
	tasks, err := ReadTasks(f, os.Getenv("HONE_BENCH_TASKS_REPO"), 20)
	if err == nil && len(tasks) == 0 {
		err = fmt.Errorf("no tasks in %s for %q (HONE_BENCH_TASKS_REPO)", f, os.Getenv("HONE_BENCH_TASKS_REPO"))
	}
	return tasks, err
}

// ReadTasks reads tasks from a file: JSON lines with a "problem_statement"
// (optionally only those whose "repo" is repo), or plain text, one task per
// line.
func ReadTasks(path, repo string, limit int) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "{") {
			var row struct {
				Repo             string `json:"repo"`
				ProblemStatement string `json:"problem_statement"`
			}
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if repo != "" && row.Repo != repo {
				continue
			}
			line = row.ProblemStatement
		}
		out = append(out, line)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}

// editTarget is the file an edit update changes: the largest of the
// index's main language, else of all; "" in an empty index.
func editTarget(ix *index.Index) string {
	lang := ix.MainLanguage()
	var best, bestOfLang *index.Entry
	larger := func(e, than *index.Entry) bool {
		return than == nil || e.Size > than.Size || e.Size == than.Size && e.Path < than.Path
	}
	for _, e := range ix.Entries() {
		if larger(e, best) {
			best = e
		}
		if (lang == "" || e.Lang == lang) && larger(e, bestOfLang) {
			bestOfLang = e
		}
	}
	switch {
	case bestOfLang != nil:
		return bestOfLang.Path
	case best != nil:
		return best.Path
	}
	return ""
}

// Print writes a report for people.
func (r *IndexReport) Print(w io.Writer) {
	fmt.Fprintf(w, "files %d (%s of source), index %s (%.2f× the source)\n", r.Files, mb(r.SourceBytes), mb(r.IndexBytes),
		float64(r.IndexBytes)/float64(max(r.SourceBytes, 1)))
	fmt.Fprintf(w, "cold index:        %s, peak RSS %s\n", r.Cold.Round(time.Millisecond), mb(r.ColdRSS))
	if r.Peer != nil {
		fmt.Fprintf(w, "peer cold index:   %s, peak RSS %s (%s); hone/peer time %.2f\n",
			r.Peer.Cold.Round(time.Millisecond), mb(r.Peer.RSS), r.Peer.Command, float64(r.Cold)/float64(r.Peer.Cold))
	}
	fmt.Fprintf(w, "no-change update:  %s\n", r.NoChange.Round(time.Millisecond))
	if r.EditPath != "" {
		fmt.Fprintf(w, "edit update:       %s (one line appended to %s)\n", r.Edit.Round(time.Millisecond), redact.QuotePath(r.EditPath))
	}
	if r.Rev2 != "" {
		fmt.Fprintf(w, "checkout update:   %s (%d files between %s and %s)\n", r.Checkout.Round(time.Millisecond), r.Changed, short(r.Rev), short(r.Rev2))
	}
	if r.Retrieve.N > 0 {
		fmt.Fprintf(w, "warm retrieve:     median %s, p90 %s over %d tasks\n", r.Retrieve.Median.Round(time.Millisecond), r.Retrieve.P90.Round(time.Millisecond), r.Retrieve.N)
	}
}
