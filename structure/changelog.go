package structure

import (
	"cmp"
	"path"
	"strings"
	"unicode"

	"github.com/hone-tools/hone/internal/lazyre"
)

// changelogName is a changelog's file name.
var changelogName = lazyre.New(`(?i)^(changelog|changes|history|news|release[-_ ]?notes)(\.(md|rst|txt|markdown|adoc))?$`)

// notesFolder is the name of a folder of release notes, one file a
// release line or a kind of note: release-notes/VERSION-2.x beside
// release-notes/AUTHORS-2.x.
var notesFolder = lazyre.New(`(?i)^(changelogs?|changes|release[-_ ]?notes)$`)

// ChangelogOwner is the folder whose code a changelog's entries are
// about, and whether the file is a changelog at all: one named as one
// (changelogName) at the root or one folder down, that folder; or a
// file of release notes other than code or a README in a notes folder
// (notesFolder) at the root or one folder down, the folder that holds
// the notes folder. A note's name begins with a letter: a towncrier
// fragment, changelog/1234.bugfix.rst, is one change's entry, added with
// it and never written again.
func ChangelogOwner(p string) (owner string, ok bool) {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch depth := strings.Count(p, "/"); {
	case depth <= 1 && changelogName().MatchString(name):
		if dir != "" && notesFolder().MatchString(dir) {
			return ".", true // changelog/CHANGELOG.md: the root's
		}
		return cmp.Or(dir, "."), true
	case depth >= 1 && depth <= 2 && notesFolder().MatchString(path.Base(dir)) && name != "" &&
		unicode.IsLetter(rune(name[0])) && !strings.HasPrefix(strings.ToLower(name), "readme") &&
		!IsCode(Language(p)):
		return path.Dir(dir), true
	}
	return "", false
}
