package walk_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/hone-tools/hone/walk"
)

func ExampleWalk() {
	root, err := os.MkdirTemp("", "walk-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	for name, content := range map[string]string{
		".gitignore":        "*.log\nbuild/\n",
		"main.go":           "package main\n",
		"main_test.go":      "package main\n",
		"debug.log":         "ignored\n",
		"build/out.go":      "ignored\n",
		"docs/guide.md":     "# Guide\n",
		"vendor/lib/lib.go": "package lib\n",
		"logo.png":          "\x89PNG\x00\x00",
		".env":              "TOKEN=x\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}

	err = walk.Walk(context.Background(), root, walk.Options{}, func(f walk.File) error {
		fmt.Printf("%-18s %q\n", f.Path, f.Kind)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// .env               "secret"
	// .gitignore         ""
	// docs/guide.md      "docs"
	// main.go            ""
	// main_test.go       "test"
	// vendor/lib/lib.go  "vendor"
}

func ExampleClassify() {
	for _, p := range []string{
		"internal/walk/walk_test.go",
		"vendor/golang.org/x/sys/unix/zerrors_linux.go",
		"api/v1/service.pb.go",
		"examples/quickstart/README.md",
		"config/.env.production",
		"contest.go",
	} {
		fmt.Printf("%-46s %q\n", p, walk.Classify(p, nil))
	}
	// Output:
	// internal/walk/walk_test.go                     "test"
	// vendor/golang.org/x/sys/unix/zerrors_linux.go  "vendor"
	// api/v1/service.pb.go                           "generated"
	// examples/quickstart/README.md                  "docs,example"
	// config/.env.production                         "secret"
	// contest.go                                     ""
}
