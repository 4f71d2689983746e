//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hone-tools/hone/internal/serve"
)

// With HONE_SERVE=auto, a command that finds no server works alone and
// starts one, which answers the next; a value it does not know is the
// user's mistake.
func TestAutoServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone and starts a server of it")
	}
	if detached() == nil {
		t.Skip("no detached processes here")
	}
	repo, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "alpha.go"), []byte("package a\n\n// Alpha rounds the totals.\nfunc Alpha() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildHone(t)
	run := func(env ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(bin, "retrieve", "--repo", repo, "--format", "json", "rounding totals")
		cmd.Env = append(os.Environ(), append([]string{"HONE_INDEX_DIR=" + dir}, env...)...)
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("hone retrieve %v: %v\n%s", env, err, e.String())
		}
		return runTimes.ReplaceAllString(o.String(), "TIME"), e.String()
	}
	alone, stderr := run("HONE_SERVE=auto")
	m := regexp.MustCompile(`started hone serve \(pid (\d+)\)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("HONE_SERVE=auto started no server: %s", stderr)
	}
	pid, _ := strconv.Atoi(m[1])
	t.Cleanup(func() {
		syscall.Kill(pid, syscall.SIGTERM)
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(serve.Path(dir)); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Error("the server started did not stop")
	})
	served := false
	for i := 0; i < 100 && !served; i++ {
		_, err := serve.Call(context.Background(), dir, serve.Request{Version: "probe"})
		served = err == nil
		time.Sleep(50 * time.Millisecond)
	}
	if !served {
		t.Fatal("the server started does not answer")
	}
	out, stderr := run("HONE_SERVE=auto")
	if strings.Contains(stderr, "started hone serve") {
		t.Errorf("a second server was started: %s", stderr)
	}
	if out != alone {
		t.Errorf("the served answer differs from the first, alone:\n%s\n%s", out, alone)
	}
	cmd := exec.Command(bin, "retrieve", "--repo", repo, "rounding")
	cmd.Env = append(os.Environ(), "HONE_INDEX_DIR="+dir, "HONE_SERVE=always")
	if out, err := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "HONE_SERVE") {
		t.Errorf("HONE_SERVE=always: %v, %s; want exit 2 and a line that names it", err, out)
	}
}
