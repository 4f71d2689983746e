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
	"runtime/pprof"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
)

func main() {
	// SIGTERM too: an MCP client ends its server so, and hone mcp then
	// stops its runs and closes its indexes as on Ctrl-C. A second
	// signal, while that goes on, ends the process at once.
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		s := <-sigs
		got.Store(s)
		signal.Stop(sigs)
		cancel()
	}()
	code := runProfiled(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if code == exitInterrupted && got.Load() == syscall.SIGTERM {
		code = 128 + 15 // the shell's code for a process SIGTERM ended
	}
	os.Exit(code)
}

// exitInterrupted is the code of a command Ctrl-C stopped, the shell's
// 128 + SIGINT.
const exitInterrupted = 130

// runProfiled is run, under the CPU profile that HONE_CPUPROFILE asks for.
func runProfiled(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	stop := startProfile(os.Getenv("HONE_CPUPROFILE"), stderr)
	defer stop()
	return run(ctx, args, stdin, stdout, stderr)
}

// startProfile writes a CPU profile of the whole process to the file
// HONE_CPUPROFILE names, for go tool pprof; the profiles of several runs
// can be read together ("go tool pprof hone p1 p2 ..."). Unset, it does
// nothing. A profile that cannot be written is said once and skipped.
func startProfile(file string, stderr io.Writer) (stop func()) {
	if file == "" {
		return func() {}
	}
	f, err := os.Create(file)
	if err == nil {
		err = pprof.StartCPUProfile(f)
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "hone: no CPU profile (HONE_CPUPROFILE): %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// backgroundEnv is the environment of a process hone starts in the
// background (the history's read, HONE_SERVE=auto's server): this one's,
// but for HONE_CPUPROFILE, whose file the process would write over the
// profile of the command that started it.
func backgroundEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HONE_CPUPROFILE=") {
			env = append(env, kv)
		}
	}
	return env
}

// readingEnv is the part of the environment that decides what a command
// reads, "KEY=value" sorted: where the user's and git's configuration and
// ignore files are (HOME, XDG_CONFIG_HOME, GIT_CONFIG_*), and the git
// variables that name a repository's parts or bound the search for it
// (GIT_DIR, GIT_INDEX_FILE, GIT_CEILING_DIRECTORIES, ...), set by git for
// its hooks. A hone serve answers only commands of the same.
func readingEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if readingVars[k] || strings.HasPrefix(k, "GIT_CONFIG") {
			out = append(out, kv)
		}
	}
	slices.Sort(out)
	return out
}

var readingVars = map[string]bool{
	"HOME": true, "XDG_CONFIG_HOME": true,
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_COMMON_DIR": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_NAMESPACE": true,
	"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true,
	"GIT_REPLACE_REF_BASE": true, "GIT_NO_REPLACE_OBJECTS": true, "GIT_GRAFT_FILE": true, "GIT_SHALLOW_FILE": true,
}

// inGitHook reports whether the command runs where git set a repository's
// parts for it (a hook, git rebase --exec): a server started there would
// keep them, for commands that have them no more.
func inGitHook() bool {
	for _, k := range []string{"GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"} {
		if os.Getenv(k) != "" {
			return true
		}
	}
	return false
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
  hone outline [--json] PATH...         a file's definitions with their line ranges (--json: JSON Lines)
  hone mcp                              serve hone to agents over MCP (stdio)
  hone serve                            keep indexes warm and watched, and answer hone retrieve for them
  hone bench --data FILE --repos DIR    run a localization benchmark (SWE-bench Lite's format)
  hone bench index --git-dir DIR ...    measure the index on a real repository
  hone bench fit --signals FILE         fit the ranking's weights, with cross-validation
  hone bench calibrate --signals FILE   fit the calibration that makes scores relevance
  hone bench packs --dump DIR           replay the context packs of an earlier run (--fit: their weights)
  hone bench hunks --data FILE          add the gold hunks to benchmark instances, from their commits
  hone bench words --data FILE          check that tasks in users' words name none of the code
  hone bench report ROWS.jsonl          print the figures of an earlier run
  hone bench compare OLD NEW            set two runs side by side, instance by instance
  hone bench mine --git-dir DIR         make benchmark instances out of a repository's history
  hone bench vocab --list REPOS.tsv     learn which code terms task words point to, from public code
  hone bench glossary --text FILE       measure the Chinese glossary's coverage of real task text
  hone version                          print the version
  hone help [COMMAND]                   show this help, or a command's usage and flags

Run "hone help COMMAND" or "hone COMMAND -h" for a command's flags. The
index lives in the user's cache directory; --index-dir or HONE_INDEX_DIR
put it elsewhere.
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, helpText)
		return 2
	}
	// A command's output that could not be written is an error, whether
	// or not the command looked: "hone outline > file" on a full disk
	// leaves a cut file. The servers' output is their protocol's, and
	// theirs to handle.
	out := &checkedWriter{w: stdout}
	if args[0] != "mcp" && args[0] != "serve" {
		stdout = out
		// What the commands say beside their results (notices, progress,
		// paths) passes the redaction as it is written, as do the index's
		// and the status's reports, which are made of paths and counts,
		// and the benchmark's: a repository's path may hold a token (a
		// clone's folder named for it). The servers' logs are redacted
		// as they are made.
		stderr = redactWriter{stderr}
		if args[0] == "index" || args[0] == "status" || args[0] == "bench" {
			stdout = redactWriter{stdout}
		}
	}
	err := dispatch(ctx, args, stdin, stdout, stderr)
	if err == nil && out.err != nil {
		err = out.err
	}
	if err == nil {
		return 0
	}
	// What goes out has passed the redaction: an error may quote a flag's
	// value, a URL with a token in it, a path.
	var ue usageError
	if errors.As(err, &ue) {
		// A command's usage runs over lines of its own making; any
		// other message is one line, whatever a value in it holds.
		msg, _ := redact.String(ue.msg)
		if strings.HasPrefix(msg, "usage: ") {
			msg, _ = redact.CleanText(msg)
		} else {
			msg = redact.Line(msg)
		}
		fmt.Fprintf(stderr, "hone: %s\n", msg)
		return 2
	}
	if errors.Is(err, errHelp) {
		return 0
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "hone: interrupted")
		return exitInterrupted
	}
	msg, _ := redact.String(err.Error())
	fmt.Fprintf(stderr, "hone: %s\n", redact.Line(msg))
	return 1
}

// redactWriter writes what passed the redaction: each write is whole
// lines, or a progress line, as fmt writes them, so that no secret is cut
// across two writes.
type redactWriter struct{ w io.Writer }

func (r redactWriter) Write(p []byte) (int, error) {
	s, _ := redact.String(string(p))
	if _, err := io.WriteString(r.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// checkedWriter is a writer that remembers the first error a write to it
// met.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// dispatch runs the command args name.
func dispatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch args[0] {
	case "retrieve":
		return cmdRetrieve(ctx, args[1:], stdin, stdout, stderr)
	case "index":
		return cmdIndex(ctx, args[1:], stdout, stderr)
	case "status":
		return cmdStatus(ctx, args[1:], stdout, stderr)
	case "bench":
		return cmdBench(ctx, args[1:], stdout, stderr)
	case "outline":
		return cmdOutline(ctx, args[1:], stdout, stderr)
	case "mcp":
		return cmdMCP(ctx, args[1:], stdout, stderr)
	case "serve":
		return cmdServe(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		if len(args) > 1 {
			if args[1] == "-h" || args[1] == "--help" || args[1] == "-help" {
				return cmdHelp(ctx, []string{"version"}, stdin, stdout)
			}
			return usagef("version takes no arguments, not %q", args[1])
		}
		fmt.Fprintf(stdout, "hone %s\n", versionString())
		fmt.Fprintf(stdout, "outlines:     %s\n", parserText())
		fmt.Fprintf(stdout, "json output:  version %d\n", hone.JSONVersion)
		fmt.Fprintf(stdout, "index format: version %s\n", index.SchemaVersion)
		return nil
	case "help", "-h", "-help", "--help":
		return cmdHelp(ctx, args[1:], stdin, stdout)
	}
	return usagef("unknown command %q: run \"hone help\" for the commands", args[0])
}

// cmdHelp prints the general help, or with a command's name that
// command's usage and flags, as "hone COMMAND -h" does.
func cmdHelp(ctx context.Context, args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, helpText)
		return nil
	}
	switch args[0] {
	case "retrieve", "index", "status", "outline", "mcp", "serve", "bench":
	case "version":
		fmt.Fprint(stdout, "Usage: hone version\n\nprints hone's version, which parser makes the outlines, and the versions of the JSON output and of the index's format\n")
		return nil
	case "help":
		fmt.Fprint(stdout, helpText)
		return nil
	default:
		return usagef("unknown command %q: run \"hone help\" for the commands", args[0])
	}
	// Only bench has commands of its own, as in "hone help bench index".
	if len(args) > 2 || len(args) == 2 && args[0] != "bench" {
		return usagef("help takes one command, not %q: run \"hone help %s\"", strings.Join(args, " "), args[0])
	}
	// The help goes to standard output, even mcp's, which prints it to
	// standard error when run as a server.
	return dispatch(ctx, append(slices.Clone(args), "-h"), stdin, stdout, stdout)
}
