package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/retrieve"
	"github.com/hone-tools/hone/zoekt"
)

// backendFlags choose where the loop searches: the embedded index (the
// default) or a zoekt cluster.
type backendFlags struct {
	kind, url, repos string
	fs               *flag.FlagSet // where they were registered
}

func (f *backendFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.kind, "backend", envOr("HONE_BACKEND", "index"), "where to search: index (the embedded index of --repo, the default) or zoekt (a zoekt-webserver's JSON API; see --zoekt-url) ($HONE_BACKEND)")
	fs.StringVar(&f.url, "zoekt-url", os.Getenv("HONE_ZOEKT_URL"), "with --backend zoekt: the zoekt-webserver, started with -rpc, e.g. http://localhost:6070 ($HONE_ZOEKT_URL)")
	fs.StringVar(&f.repos, "zoekt-repos", os.Getenv("HONE_ZOEKT_REPOS"), "with --backend zoekt: the repositories to search, by their names in zoekt, comma-separated (default: all) ($HONE_ZOEKT_REPOS)")
}

// open is the zoekt client the flags name; nil for the embedded index.
func (f *backendFlags) open() (*zoekt.Client, error) {
	switch f.kind {
	case "", "index":
		if name := givenOf(f.fs, "zoekt-url", "zoekt-repos"); name != "" {
			return nil, usagef("--%s is for a zoekt cluster: give --backend zoekt (or HONE_BACKEND=zoekt), or leave --%s out", name, name)
		}
		return nil, nil
	case "zoekt":
	default:
		return nil, usagef("unknown backend %q (--backend or HONE_BACKEND): use index or zoekt", f.kind)
	}
	if f.url == "" {
		return nil, usagef("--backend zoekt (or HONE_BACKEND=zoekt) needs --zoekt-url or HONE_ZOEKT_URL, such as http://localhost:6070 (a zoekt-webserver started with -rpc)")
	}
	var repos []string
	if f.repos != "" {
		repos = strings.Split(f.repos, ",")
	}
	c, err := zoekt.New(f.url, repos)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

// retrieveZoekt runs the loop over what a zoekt cluster finds, in a
// working folder of its own; done removes it, once the caller has read
// the files (for a pack).
func retrieveZoekt(ctx context.Context, c *zoekt.Client, task string, opts hone.Options) (res *hone.Result, tree string, done func(), err error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	if err := os.MkdirAll(filepath.Join(base, "hone"), 0o700); err != nil {
		return nil, "", nil, fmt.Errorf("make the working folder: %w", err)
	}
	work, err := os.MkdirTemp(filepath.Join(base, "hone"), "zoekt-")
	if err != nil {
		return nil, "", nil, fmt.Errorf("make the working folder: %w", err)
	}
	done = func() { os.RemoveAll(work) }
	tree = filepath.Join(work, "tree")
	res, err = retrieve.RetrieveFrom(ctx, c, tree, filepath.Join(work, "index"), task, opts)
	if err != nil {
		done()
		return nil, "", nil, err
	}
	return res, tree, done, nil
}
