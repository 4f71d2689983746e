package index

import (
	"strings"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// Foreign reports whether e is another project's code that the
// repository keeps under a name that does not say so (walk.Vendor is for
// vendor/, third_party/ and the like): a file with a copyright notice of
// its own (walk.Notice) below a folder, not the root, that holds a licence
// file of its own (LICENSE, COPYING.txt, ICU-license.html) and no package
// manifest, with no manifest in the folders between. A package of a
// monorepo keeps its manifest beside its licence, and is the project's
// own; so is code under a folder's licence that carries no notice (a
// module once forked from another project, whose licence it keeps
// beside it). Licence pages of the documentation (docs/license.md) and
// code named for licences (license.go) mark nothing.
func (ix *Index) Foreign(e *Entry) bool {
	if e == nil || !e.Kind.Has(walk.Notice) {
		return false
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.licensed == nil {
		ix.licensed = licensedFolders(ix.catalog())
	}
	if len(ix.licensed) == 0 {
		return false
	}
	dir := e.Path
	for {
		i := strings.LastIndexByte(dir, '/')
		if i <= 0 {
			return false
		}
		dir = dir[:i]
		switch ix.licensed[dir] {
		case folderManifest:
			return false
		case folderLicence:
			return true
		}
	}
}

// A folder's mark: what says whose its code is.
const (
	folderLicence  = 1 // a licence file of its own
	folderManifest = 2 // a package manifest: the project's own package
)

// licensedFolders marks the folders below the root that hold a licence
// file or a package manifest; a manifest wins. Empty, not nil, when no
// folder holds a licence file.
func licensedFolders(cat map[string]*Entry) map[string]int8 {
	out := map[string]int8{}
	var manifests []string
	for p, e := range cat {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			continue // the root's own
		}
		dir, base := p[:i], strings.ToLower(p[i+1:])
		switch {
		case packageManifest(base):
			manifests = append(manifests, dir)
		case licenceFile(base) && !structure.IsCode(e.Lang) && !inProse(dir):
			out[dir] = folderLicence
		}
	}
	if len(out) == 0 {
		return out
	}
	for _, d := range manifests {
		out[d] = folderManifest
	}
	return out
}

// inProse reports whether dir is, or lies in, a folder of documentation or
// tests (docs/license.md is a page, tests/data/LICENSE a fixture).
func inProse(dir string) bool {
	return walk.Classify(dir+"/_", nil)&(walk.Docs|walk.Test|walk.Example) != 0
}

// licenceFile tells a licence file by its lower-case name: license,
// licence, copying, copyright or unlicense with any ending (LICENSE-MIT,
// COPYING.txt), or a name that ends a word with one (ICU-license.html,
// zlib_license.txt).
func licenceFile(base string) bool {
	for _, w := range [...]string{"license", "licence", "copying", "copyright", "unlicense"} {
		if strings.HasPrefix(base, w) {
			return true
		}
		if i := strings.Index(base, w); i > 0 && (base[i-1] == '-' || base[i-1] == '_') {
			return true
		}
	}
	return false
}

// packageManifest tells the manifest of a package manager by its
// lower-case name. Build files (Makefile, CMakeLists.txt) are not
// manifests: vendored C libraries keep theirs.
func packageManifest(base string) bool {
	switch base {
	case "package.json", "cargo.toml", "pyproject.toml", "setup.py", "setup.cfg", "go.mod",
		"pom.xml", "build.gradle", "build.gradle.kts", "composer.json", "package.swift",
		"pubspec.yaml", "mix.exs", "deno.json", "jsr.json":
		return true
	}
	return strings.HasSuffix(base, ".gemspec") || strings.HasSuffix(base, ".csproj") || strings.HasSuffix(base, ".cabal")
}
