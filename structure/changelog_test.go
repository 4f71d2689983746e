package structure

import "testing"

func TestChangelogOwner(t *testing.T) {
	for _, tt := range []struct {
		path, owner string
		ok          bool
	}{
		{"CHANGELOG.md", ".", true},
		{"core/CHANGELOG.md", "core", true},
		{"NEWS", ".", true},
		{"deep/er/NEWS.md", "", false},
		{"src/history.py", "", false}, // a name that says history, under src/: code
		{"release-notes/VERSION-5.x", ".", true},
		{"Release_Notes/CONTRIBUTORS-5.x", ".", true},
		{"sub/changes/notes.md", "sub", true},
		{"a/b/changes/notes.md", "", false}, // the notes folder two down
		{"changelog/README.md", "", false},
		{"changes/make.py", "", false},
		{"changelog/1234.bugfix.rst", "", false}, // a towncrier fragment: one change's
		{"changelog/+orphan.bugfix.md", "", false},
		{"changelog/_template.rst", "", false},
		{"RELEASE-NOTES", ".", true}, // a file of that name
		{"changelog/CHANGELOG.md", ".", true},
		{"src/lib.rs", "", false},
	} {
		owner, ok := ChangelogOwner(tt.path)
		if owner != tt.owner || ok != tt.ok {
			t.Errorf("ChangelogOwner(%q) = %q, %v; want %q, %v", tt.path, owner, ok, tt.owner, tt.ok)
		}
	}
}
