// Command hone finds the code context a coding agent needs for a task.
//
// Usage:
//
//	hone retrieve [--repo DIR] [--json | --format text|json|context] [--budget TOKENS]
//	              [--max-cycles N] [--threshold X] [--include GLOB]... [--exclude GLOB]...
//	              [--task-file FILE|-] [TASK WORDS...]
//
// Run "hone help" for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is bad input from the user: exit status 2, one line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

const helpText = `hone finds the code context a coding agent needs for a task.

Usage:
  hone retrieve [flags] TASK WORDS...   find the files that matter for a task
  hone index [--rebuild]                bring the repository's index up to date
  hone status                           show the index: path, files, size, last update
  hone outline [--json] PATH...         a file's definitions with their line ranges
  hone mcp                              serve hone to agents over MCP (stdio)
  hone bench --data FILE --repos DIR    run a localization benchmark (SWE-bench Lite's format)
  hone bench index --git-dir DIR ...    measure the index on a real repository
  hone bench fit --signals FILE         fit the ranking's weights, with cross-validation
  hone bench report ROWS.jsonl          print the figures of an earlier run
  hone bench compare OLD NEW            set two runs side by side, instance by instance
  hone bench mine --git-dir DIR         make benchmark instances out of a repository's history
  hone bench vocab --list REPOS.tsv     learn which code terms task words point to, from public code
  hone bench glossary --text FILE       measure the Chinese glossary's coverage of real task text
  hone version                          print the version
  hone help                             show this help

Run "hone COMMAND -h" for a command's flags. The index lives in the user's
cache directory; --index-dir or HONE_INDEX_DIR put it elsewhere.
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, helpText)
		return 2
	}
	var err error
	switch args[0] {
	case "retrieve":
		err = cmdRetrieve(ctx, args[1:], stdin, stdout, stderr)
	case "index":
		err = cmdIndex(ctx, args[1:], stdout, stderr)
	case "status":
		err = cmdStatus(ctx, args[1:], stdout, stderr)
	case "bench":
		err = cmdBench(ctx, args[1:], stdout, stderr)
	case "outline":
		err = cmdOutline(ctx, args[1:], stdout, stderr)
	case "mcp":
		err = cmdMCP(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "hone %s\n", versionString())
		fmt.Fprintf(stdout, "outlines:     %s\n", parserText())
		fmt.Fprintf(stdout, "json output:  version %d\n", hone.JSONVersion)
		fmt.Fprintf(stdout, "index format: version %s\n", index.SchemaVersion)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, helpText)
	default:
		err = usagef("unknown command %q: run \"hone help\" for the commands", args[0])
	}
	if err == nil {
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "hone: %s\n", ue.msg)
		return 2
	}
	if errors.Is(err, errHelp) {
		return 0
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "hone: interrupted")
		return 130
	}
	fmt.Fprintf(stderr, "hone: %v\n", err)
	return 1
}
