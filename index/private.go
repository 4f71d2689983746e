package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// An index holds every token of the files it reads, and the history cache
// their commits' subjects: both are kept as ssh and gpg keep their state,
// in folders only their owner may enter (0700), in files only their owner
// may read (0600).

// PrivateDB prepares path for a SQLite database only its owner may read:
// its folder, and the folders above it that are missing, made 0700, and the
// file made 0600 before SQLite opens it (SQLite gives its -wal and -shm
// files the database's permissions). A database and journals left readable
// by others by an older hone are made private.
func PrivateDB(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errIndexDir(err)
	}
	// A path that is there and no file (a FIFO, a folder) would block
	// the open, or fail it with less to say.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("index %s is not a file (%s): remove it, and hone builds the index anew", path, fi.Mode().Type())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create index %s: %w", path, err)
	}
	f.Close()
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := private(path+suffix, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// privateDir makes a folder of hone's own, such as an index's, 0700.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errIndexDir(err)
	}
	return private(dir, 0o700)
}

// errIndexDir says that the folder of an index could not be made, and
// what to do.
func errIndexDir(err error) error {
	return fmt.Errorf("create index directory: %w (indexes go in the folder asked for (hone's --index-dir, or Options.Dir), else $HONE_INDEX_DIR, else the user's cache folder: give one that is a folder you can write)", err)
}

// private takes away the group's and others' permissions on p, if it
// exists and has any.
func private(p string, mode fs.FileMode) error {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check the permissions of %s: %w", p, err)
	}
	if fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(p, mode); err != nil {
		return fmt.Errorf("make %s private (chmod %o): %w", p, mode, err)
	}
	return nil
}
