//go:build unix

package walk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.go")
	os.WriteFile(small, []byte("package x\n"), 0o644)
	big := filepath.Join(dir, "big.go")
	os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	tests := []struct {
		name string
		want error
	}{
		{small, nil},
		{big, ErrTooLarge},
		{fifo, ErrNotRegular}, // must not block waiting for a writer
		{dir, ErrNotRegular},
		{"/dev/zero", ErrNotRegular},
		{filepath.Join(dir, "missing"), os.ErrNotExist},
	}
	for _, tt := range tests {
		b, err := ReadRegular(tt.name, 100)
		if tt.want == nil && (err != nil || string(b) != "package x\n") || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("ReadRegular(%s) = %q, %v; want %v", filepath.Base(tt.name), b, err, tt.want)
		}
	}
}
