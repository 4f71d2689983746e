package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"

	"github.com/hone-tools/hone/mcpserver"
)

// cmdMCP serves MCP over standard input and output. Standard output
// carries only the protocol: logs go to stderr or --log-file.
func cmdMCP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var f indexFlags
	f.register(fs)
	logFile := fs.String("log-file", "", "write logs to FILE instead of standard error")
	var ef evalFlags
	ef.register(fs)
	words, err := parseFlags(fs, args, stderr, "hone mcp [--repo DIR] [--index-dir DIR] [--log-file FILE] [--evaluator openai|anthropic --model M]")
	if err != nil {
		return err
	}
	if err := noArgs("mcp", "to serve", words); err != nil {
		return err
	}
	model, err := ef.open()
	if err != nil {
		return err
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
	log := slog.New(slog.NewTextHandler(logw, nil))
	var srv *mcpserver.Server
	if root != "" {
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
	return srv.Run(ctx, mcpserver.NewStdioTransport(stdout))
}
