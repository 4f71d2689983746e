package main

import (
	"context"
	"github.com/hone-tools/hone/internal/testenv"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	// The fixtures are folders of this project's repository: git stops
	// looking for a repository at testdata/repos, so that they have no
	// history, whatever commit of hone is checked out.
	testenv.Setup(filepath.Join("..", "..", "testdata", "repos"))
	testscript.Main(m, map[string]func(){
		"hone": func() {
			os.Exit(runProfiled(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the CLI scripts in testdata/script. $FIXTURES names the
// fixture repositories.
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "testdata", "repos"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
			env.Setenv("HONE_INDEX_DIR", filepath.Join(env.WorkDir, ".index"))
			env.Setenv("GIT_CEILING_DIRECTORIES", fixtures)
			return nil
		},
	})
}
