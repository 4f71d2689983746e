package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
)

// backgroundAt is the longest history hone index reads beside the index,
// in commits; a longer one, not read before, is read after it, by a
// process of its own, so that the index is not held up. A history of
// 20,000 commits took 2 to 3 seconds.
var backgroundAt = 2000

// indexHistory is what hone index does with the git history: it knows it,
// reads it beside the index, or leaves it to a process of its own.
type indexHistory struct {
	cancel     context.CancelFunc
	done       chan struct{}
	commits    int
	took       time.Duration
	err        error
	background bool // a long history not read before
}

// startIndexHistory starts finding out, and reading the history of the
// repository at root when it is short.
func startIndexHistory(ctx context.Context, root, cacheDir string) *indexHistory {
	ctx, cancel := context.WithCancel(ctx)
	h := &indexHistory{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		begin := time.Now()
		defer func() { h.took = time.Since(begin) }()
		// Where no process of its own can be started, a long history is
		// read here, beside the index.
		most := -1
		if detached() != nil {
			most = backgroundAt
		}
		h.commits, h.err = history.WarmUpTo(ctx, root, "", "", cacheDir, most)
		if errors.Is(h.err, history.ErrLong) {
			h.background, h.err = true, nil
		}
	}()
	return h
}

// stop stops the read and waits for it to end.
func (h *indexHistory) stop() {
	h.cancel()
	<-h.done
}

// report waits for the history and says what came of it: a long history
// is left to a process of its own, started now, which reads it while the
// user goes on; a history that process cannot be started for is read
// here.
func (h *indexHistory) report(ctx context.Context, root, cacheDir string, stdout, stderr io.Writer) {
	<-h.done
	if h.background {
		logPath, err := startBackground(root, cacheDir)
		if err == nil {
			fmt.Fprintf(stdout, "reading the git history in the background: answers leave it out until it is read (hone index --history-only waits for it; its log: %s)\n", redact.QuotePath(logPath))
			return
		}
		begin := time.Now()
		h.commits, h.err = history.Warm(ctx, root, "", "", cacheDir)
		h.took += time.Since(begin)
	}
	sayHistoryRead(stdout, stderr, h.commits, h.took, h.err)
}

// sayHistoryRead says how a read of the git history ended: its commits
// and time, or why it was left out; a repository without git says
// nothing.
func sayHistoryRead(stdout, stderr io.Writer, commits int, took time.Duration, err error) {
	switch {
	case err == nil:
		fmt.Fprintf(stdout, "read the git history: %d commits in %s\n", commits, took.Round(time.Millisecond))
	case !errors.Is(err, history.ErrNoGit):
		fmt.Fprintf(stderr, "hone: git history left out: %v\n", err)
	}
}

// startBackground starts hone index --history-only for the repository at
// root, in a session of its own, and does not wait for it. What it says,
// and a failure, go to a log in the index's folder, whose path it
// returns.
func startBackground(root, cacheDir string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	attr := detached()
	if attr == nil {
		return "", errors.ErrUnsupported
	}
	ixPath, err := index.PathOf(root, index.Options{Dir: cacheDir})
	if err != nil {
		return "", err
	}
	logPath := filepath.Join(filepath.Dir(ixPath), "history.log")
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	defer log.Close() // the process has its own copy
	args := []string{os.Args[0], "index", "--history-only", "--repo", root}
	if cacheDir != "" {
		args = append(args, "--index-dir", cacheDir)
	}
	cmd := &exec.Cmd{Path: exe, Args: args, Dir: root, Env: backgroundEnv(), Stdout: log, Stderr: log, SysProcAttr: attr}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	return logPath, cmd.Process.Release()
}
