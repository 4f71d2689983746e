package walk

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// dirBufSize is the size of the buffer for directory entries.
const dirBufSize = 16 << 10

// Offsets in a struct linux_dirent64.
const (
	direntReclen = 16 // unsigned short d_reclen
	direntType   = 18 // unsigned char d_type
	direntName   = 19 // char d_name[], NUL-terminated
)

// dirHandle is a directory open for reading its entries and the status
// of its files: a file's status is asked by its name in the directory, so
// that the kernel resolves one name rather than the whole path again,
// which made a no-change update a third slower.
type dirHandle struct {
	fd   int
	path string
}

// openDir opens directory dir.
//
// It makes the system calls itself: os.Open would add five (to set up and
// give up non-blocking I/O), which would double the cost of reading a
// small directory.
func openDir(dir string) (dirHandle, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return dirHandle{fd: -1}, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return dirHandle{fd: fd, path: dir}, nil
}

func (d dirHandle) close() {
	if d.fd >= 0 {
		syscall.Close(d.fd)
	}
}

// stat returns the status of the directory's file name, not following
// symbolic links, as os.Lstat would. In a directory not opened (fd -1:
// a listed folder of few entries), the name is looked up from its path.
func (d dirHandle) stat(name string) (fileStat, error) {
	var st unix.Stat_t
	fd, p := d.fd, name
	if fd < 0 {
		fd, p = unix.AT_FDCWD, join(d.path, name)
	}
	err := ignoringEINTR(func() error { return unix.Fstatat(fd, p, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil {
		return fileStat{}, &fs.PathError{Op: "lstat", Path: join(d.path, name), Err: err}
	}
	return fileStat{size: st.Size, mtime: time.Unix(st.Mtim.Unix()), ctime: time.Unix(st.Ctim.Unix()), ino: st.Ino}, nil
}

// unopened is the directory dir, not opened: its entries come from its
// listing, and its files' statuses are taken by path.
func unopened(dir string) dirHandle { return dirHandle{fd: -1, path: dir} }

// statDir returns what the status of the directory dir says of its
// entries; false when it cannot be taken.
func statDir(dir string) (dirStamp, bool) {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Lstat(dir, &st) }); err != nil {
		return dirStamp{}, false
	}
	return stampOf(&st)
}

// statFileStamp returns the status of the regular file at path as a
// stamp: its times, inode, size and links; false when it cannot be taken.
// A file git replaces (its index, written anew and renamed) has another
// inode.
func statFileStamp(path string) (dirStamp, bool) {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Stat(path, &st) }); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return dirStamp{}, false
	}
	return dirStamp{mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino, size: st.Size, nlink: uint64(st.Nlink)}, true
}

// stamp is statDir for the open directory.
func (d dirHandle) stamp() (dirStamp, bool) {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(d.fd, &st) }); err != nil {
		return dirStamp{}, false
	}
	return stampOf(&st)
}

func stampOf(st *unix.Stat_t) (dirStamp, bool) {
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return dirStamp{}, false
	}
	return dirStamp{mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino, size: st.Size, nlink: uint64(st.Nlink)}, true
}

// KeepsListings reports whether a walk of root keeps folders' listings:
// whether its file system keeps a folder's
// times as its entries change, and answers stat calls with what it holds
// now. Network and user-space file systems may answer from a cache, or
// not move the times at all: there, every folder is read on every walk,
// as git asks of its untracked cache.
func KeepsListings(root string) bool {
	var fs unix.Statfs_t
	if err := unix.Statfs(root, &fs); err != nil {
		return false
	}
	switch int64(fs.Type) {
	case unix.NFS_SUPER_MAGIC, unix.FUSE_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC, unix.SMB_SUPER_MAGIC,
		smb2SuperMagic, unix.V9FS_MAGIC, unix.CEPH_SUPER_MAGIC, unix.AFS_SUPER_MAGIC, unix.CODA_SUPER_MAGIC:
		return false
	}
	return true
}

// smb2SuperMagic is the magic number of Linux's SMB2/3 client (cifs.ko's
// smb3), which golang.org/x/sys does not name.
const smb2SuperMagic = 0xfe534d42

// entries returns the entries of the directory other than "." and "..",
// unsorted. On error it returns the entries read before the error. buf is
// scratch space, reallocated if too small.
func (d dirHandle) entries(buf *[]byte) ([]dirent, error) {
	fd, dir := d.fd, d.path
	if len(*buf) < dirBufSize {
		*buf = make([]byte, dirBufSize)
	}
	var ents []dirent
	for {
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = syscall.ReadDirent(fd, *buf)
			return err
		})
		if err != nil {
			return ents, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return ents, nil
		}
		for b := (*buf)[:n]; len(b) > direntName; {
			reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
			if reclen <= direntName || reclen > len(b) {
				break
			}
			rec := b[:reclen]
			b = b[reclen:]
			name := rec[direntName:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if string(name) == "." || string(name) == ".." {
				continue
			}
			e := dirent{name: string(name)}
			switch rec[direntType] {
			case syscall.DT_REG:
			case syscall.DT_DIR:
				e.typ = fs.ModeDir
			case syscall.DT_LNK:
				e.typ = fs.ModeSymlink
			case syscall.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				e.typ = fs.ModeSocket
			case syscall.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				e.typ = fs.ModeDevice
			default:
				// The file system does not say: ask.
				info, err := os.Lstat(join(dir, e.name))
				if err != nil {
					if os.IsNotExist(err) {
						continue // gone already
					}
					return ents, err
				}
				e.typ = info.Mode().Type()
			}
			ents = append(ents, e)
		}
	}
}

// ignoringEINTR calls fn until it fails with an error other than EINTR.
func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); err != syscall.EINTR {
			return err
		}
	}
}

// readHead reads the first len(buf) bytes of the file path into buf, or as
// many as it has, and returns them.
func readHead(path string, buf []byte) ([]byte, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	n := 0
	for n < len(buf) {
		var m int
		err := ignoringEINTR(func() (err error) {
			m, err = syscall.Read(fd, buf[n:])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if m <= 0 {
			break
		}
		n += m
	}
	return buf[:n], nil
}
