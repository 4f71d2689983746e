package index

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// TestSkippedExampleRedacted: the example of a file that could not be
// read is redacted whole before it is cut to a line's length, so that no
// piece of a token in its path shows.
func TestSkippedExampleRedacted(t *testing.T) {
	const token = "ghp_rPmvA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
	for _, rel := range []string{
		"storage/creds_" + token + ".go",
		"a/" + token + "_keys/" + strings.Repeat("long_name_", 8) + ".go",
	} {
		var s Skipped
		s.skip(rel, &fs.PathError{Op: "open", Path: rel, Err: syscall.EACCES})
		for _, piece := range []string{token[:12], token[len(token)-12:], token[10:22]} {
			if strings.Contains(s.Example, piece) || strings.Contains(s.String(), piece) {
				t.Errorf("%s: the example %q shows %q of the token", rel, s.Example, piece)
			}
		}
		if !strings.Contains(s.Example, "redacted") {
			t.Errorf("%s: the example %q holds no placeholder", rel, s.Example)
		}
	}
}
