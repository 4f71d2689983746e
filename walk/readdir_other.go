//go:build !linux

package walk

import (
	"io"
	"os"
)

// dirHandle is a directory to read the entries and file statuses of.
type dirHandle struct{ path string }

func openDir(dir string) (dirHandle, error) { return dirHandle{dir}, nil }

func (d dirHandle) close() {}

// unopened is the directory dir, not opened: its entries come from its
// listing.
func unopened(dir string) dirHandle { return dirHandle{dir} }

// statDir: elsewhere than on Linux, folders are read on every walk.
func statDir(dir string) (dirStamp, bool) { return dirStamp{}, false }

func (d dirHandle) stamp() (dirStamp, bool) { return dirStamp{}, false }

// statFileStamp: elsewhere than on Linux, nothing is kept by a file's
// status.
func statFileStamp(path string) (dirStamp, bool) { return dirStamp{}, false }

// KeepsListings reports whether a walk of root keeps folders' listings:
// only on Linux.
func KeepsListings(root string) bool { return false }

func (d dirHandle) stat(name string) (fileStat, error) { return statFile(join(d.path, name)) }

// entries returns the entries of the directory other than "." and "..",
// unsorted. On error it returns the entries read before the error. buf is
// unused.
func (d dirHandle) entries(buf *[]byte) ([]dirent, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	ents := make([]dirent, len(des))
	for i, de := range des {
		ents[i] = dirent{name: de.Name(), typ: de.Type()}
	}
	return ents, err
}

// statFile returns the size and modification time of the file path, not
// following symbolic links; the inode and change time are left out.
func statFile(path string) (fileStat, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{size: info.Size(), mtime: info.ModTime()}, nil
}

// readHead reads the first len(buf) bytes of the file path into buf, or as
// many as it has, and returns them.
func readHead(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := io.ReadFull(f, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return buf[:n], err
}
