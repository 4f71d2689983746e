package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hone-tools/hone/mcpserver"
)

// cmdMCP serves MCP over standard input and output. Standard output
// carries only the protocol: logs go to stderr or --log-file.
func cmdMCP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var f indexFlags
	f.register(fs)
	fs.Lookup("repo").Usage = "the repository (default: each client's workspace, its MCP roots; for a client that names none, the git root enclosing the working directory)"
	logFile := fs.String("log-file", "", "write logs to FILE instead of standard error")
	var ef evalFlags
	ef.register(fs)
	var bf backendFlags
	bf.register(fs)
	words, err := parseFlags(fs, args, stderr, "hone mcp [--repo DIR] [--index-dir DIR] [--log-file FILE] [--evaluator openai|anthropic --model M] [--backend zoekt --zoekt-url URL [--zoekt-repos R,...]]")
	if err != nil {
		return err
	}
	if err := noArgs("mcp", "to serve", words); err != nil {
		return err
	}
	// A client that ends with a call under way leaves the server writing
	// to a pipe no one reads: the session's end, whose write fails, not a
	// SIGPIPE that kills the server before it closes its indexes.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	model, err := ef.open(notifier(stderr))
	if err != nil {
		return err
	}
	zc, err := bf.open()
	if err != nil {
		return err
	}
	if zc != nil && f.repo != "" {
		return usagef("--backend zoekt serves the cluster, not --repo: give --zoekt-repos to narrow it")
	}
	// The repository: --repo's; else each client's workspace (its MCP
	// roots), and the git repository the server starts in for a client
	// that names none. A folder outside git is never taken unasked: a
	// server started in a home folder must not index it.
	var root, fallback string
	if f.repo != "" {
		if root, _, err = repoRoot(f.repo); err != nil {
			return err
		}
	} else if wd, err := os.Getwd(); err == nil {
		fallback, _ = gitRoot(wd)
	}
	var logw io.Writer = stderr
	if *logFile != "" {
		lf, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return usagef("cannot open the log file: %v", err)
		}
		defer lf.Close()
		logw = lf
	}
	log := redactedLog(logw, slog.LevelInfo)
	var srv *mcpserver.Server
	if zc != nil {
		base, cerr := os.UserCacheDir()
		if cerr != nil {
			base = os.TempDir()
		}
		os.MkdirAll(filepath.Join(base, "hone"), 0o700)
		work, werr := os.MkdirTemp(filepath.Join(base, "hone"), "zoekt-mcp-")
		if werr != nil {
			return fmt.Errorf("make the working folder: %w", werr)
		}
		defer os.RemoveAll(work)
		srv, err = mcpserver.NewZoekt(zc, work, log)
	} else if root != "" {
		srv, err = mcpserver.New(root, f.dir, log)
	} else {
		srv, err = mcpserver.NewWorkspace(fallback, f.dir, log)
	}
	if err != nil {
		return usagef("%v", err)
	}
	if model != nil {
		srv.SetModel(model)
	}
	// The transport checks every line, answering a bad one with an error
	// reply, and bounds the requests in progress.
	err = srv.Run(ctx, mcpserver.NewStdioTransport(stdout))
	if errors.Is(err, syscall.EPIPE) {
		// The client stopped reading: its session is over, as at the
		// end of its input.
		return nil
	}
	return err
}
