package retrieve_test

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/retrieve"
)

// A task that writes an option gets the man page its parser's commits
// write, in the ranking, beside the changelog; the caller's excludes keep
// both out.
func TestOptionDocPlaced(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := retrieve.WriteFiles(t, map[string]string{
		"src/cli.rs": `// The command line's options.
pub fn build_cli() -> Command {
    Command::new("tool")
        .arg(Arg::new("hidden").long("hidden").help("Search hidden files (--hidden)"))
        .arg(Arg::new("follow").long("follow").help("Follow links (--follow)"))
        .arg(Arg::new("exec").long("exec").help("Run a command for each result (--exec)"))
        .arg(Arg::new("threads").long("threads").help("Worker threads (--threads)"))
        .arg(Arg::new("color").long("color").help("When to color (--color)"))
        .arg(Arg::new("max-results").long("max-results").help("Stop after --max-results results"))
}
`,
		"src/walk.rs":    "pub fn walk(root: &Path) { for entry in read_dir(root) { visit(entry); } }\n",
		"src/output.rs":  "pub fn print_entry(path: &Path) { println!(\"{}\", path.display()); }\n",
		"doc/tool.1":     ".TH TOOL 1\n.TP\n.B \\-\\-hidden\nSearch hidden files: --hidden.\n.TP\n--follow, --exec, --threads, --color\n",
		"CHANGELOG.md":   "# Changes\n",
		"build/notes.md": "How to build\n",
	})
	git := gitIn(t, repo)
	git("init", "-q")
	git("add", "src/walk.rs", "src/output.rs", "CHANGELOG.md", "build/notes.md")
	git("commit", "-q", "-m", "Walk the tree")
	for i, msg := range []string{"Add the hidden option", "Add the exec option", "Add the threads option"} {
		// Each option's commit writes the parser and the man page; the
		// file's text changes so that git sees a change.
		for _, f := range []string{"src/cli.rs", "doc/tool.1"} {
			b, err := os.ReadFile(repo + "/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				b = append(b, '\n')
			}
			if err := os.WriteFile(repo+"/"+f, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "src/cli.rs", "doc/tool.1")
		git("commit", "-q", "-m", msg)
	}
	// The man page holds none of the task's words: only its history
	// places it.
	task := "the --max-results flag is not honoured: the cli parser ignores it"
	ranked := func(opts hone.Options) map[string]bool {
		res, err := retrieve.Retrieve(context.Background(), repo, task, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Ranking) == 0 || res.Ranking[0].Path != "src/cli.rs" {
			t.Fatalf("ranking %+v: want src/cli.rs first", res.Ranking)
		}
		in := map[string]bool{}
		for _, r := range res.Ranking {
			in[r.Path] = true
		}
		return in
	}
	if in := ranked(hone.Options{}); !in["doc/tool.1"] || !in["CHANGELOG.md"] {
		t.Errorf("ranking holds %v: want the man page doc/tool.1 and CHANGELOG.md in it", slices.Sorted(maps.Keys(in)))
	}
	if in := ranked(hone.Options{Exclude: []string{"doc", "CHANGELOG.md"}}); in["doc/tool.1"] || in["CHANGELOG.md"] {
		t.Errorf("with doc and CHANGELOG.md excluded, the ranking holds %v", slices.Sorted(maps.Keys(in)))
	}
}

// Every file the ranking puts at or above the threshold is in the result's
// files, the changelog placed by its share among them: the result never
// says a file reaches the threshold and leaves it out.
func TestPlacedFilesAtTheThreshold(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := retrieve.WriteFiles(t, map[string]string{
		"src/auth/tokens.ts":  "export const ACCESS_TOKEN_EXPIRY_SECONDS = 900;\nexport function tokenExpiry(issued: number): number {\n  return issued + ACCESS_TOKEN_EXPIRY_SECONDS;\n}\n",
		"src/auth/session.ts": "import { tokenExpiry } from './tokens';\nexport function sessionEnds(issued: number) { return tokenExpiry(issued); }\n",
		"src/util/log.ts":     "export function log(msg: string) { console.log(msg); }\n",
		"CHANGELOG.md":        "# Changes\n",
	})
	git := gitIn(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "Start")
	// Every change writes the changelog too.
	for i := range 5 {
		for _, f := range []string{"src/auth/tokens.ts", "CHANGELOG.md"} {
			b, err := os.ReadFile(repo + "/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(repo+"/"+f, append(b, []byte("// change "+string(rune('a'+i))+"\n")...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "src/auth/tokens.ts", "CHANGELOG.md")
		git("commit", "-q", "-m", "Change the token expiry "+string(rune('a'+i)))
	}
	res, err := retrieve.Retrieve(context.Background(), repo, "ACCESS_TOKEN_EXPIRY_SECONDS is wrong in tokens.ts", hone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, f := range res.Files {
		in[f.Path] = true
	}
	placed := false
	for _, r := range res.Ranking {
		if r.Path == "CHANGELOG.md" && r.Relevance >= res.Threshold {
			placed = true
		}
		if r.Relevance >= res.Threshold && !in[r.Path] {
			t.Errorf("%s is ranked at %.2f, at the threshold %.2f, and not in the files %v", r.Path, r.Relevance, res.Threshold, slices.Sorted(maps.Keys(in)))
		}
	}
	if !placed {
		t.Errorf("the changelog, in every commit beside tokens.ts, is not placed at the threshold: ranking %+v", res.Ranking)
	}
}
