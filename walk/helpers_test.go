package walk

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files under root. Keys are slash paths; a key ending in
// "/" creates an empty directory. Parent directories are created as needed.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkPaths returns the paths Walk visits under root.
func walkPaths(t testing.TB, root string, opts Options) []string {
	t.Helper()
	files, err := Files(context.Background(), root, opts)
	if err != nil {
		t.Fatalf("Files(%s): %v", root, err)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	return paths
}

// symlink creates a symbolic link or skips the test where that is not
// possible (as on Windows without privileges).
func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks: %v", err)
	}
}

// gitAt is a git command run in dir, with the user's configuration and
// global excludes kept out: HOME and XDG_CONFIG_HOME are home.
func gitAt(git, home, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(git, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	return cmd
}

// gitListed lists, sorted, the files git tracks and the untracked files
// it does not ignore, as it lists them run in dir: their paths below dir.
func gitListed(t testing.TB, git, home, dir string) []string {
	t.Helper()
	out, err := gitAt(git, home, dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", dir, err)
	}
	paths := splitNUL(out)
	slices.Sort(paths)
	return slices.Compact(paths)
}

// splitNUL splits git's -z output into its paths.
func splitNUL(out []byte) []string {
	var paths []string
	for p := range bytes.SplitSeq(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return paths
}
