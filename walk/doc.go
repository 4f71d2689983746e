// Package walk lists the files of a repository for indexing.
//
// [Walk] visits every regular file under a root directory in lexical order of
// its slash-separated path, skipping what a retrieval index should not see:
//
//   - paths ignored by .gitignore, .ignore or .honeignore files at any
//     directory level (gitignore syntax, with later and deeper files taking
//     precedence, and .honeignore overriding .ignore overriding .gitignore
//     within a directory), by those of the folders above the root up to
//     the top of the git work tree that holds it (when the root is a
//     folder inside one), by the repository's .git/info/exclude, and by
//     the user's excludes file (core.excludesFile, else
//     ~/.config/git/ignore), found as git finds it;
//   - version-control metadata (.git, .hg, .svn, .bzr, _darcs, .jj);
//   - symbolic links, devices, sockets and pipes;
//   - files larger than [Options.MaxFileSize];
//   - binary files, recognised by a NUL byte in their first [HeadSize] bytes.
//
// Ignored directories are pruned, so a huge ignored node_modules costs a
// single directory read. Every ignore file is parsed once, when its directory
// is read. Walk reads at most [HeadSize] bytes of each file. It reads
// directories in parallel, ahead of the callback, which it calls in order
// from a single goroutine.
//
// Each file is tagged with a [Kind], a bit set derived by [Classify] from its
// path and first bytes: test, vendored, generated, documentation, example and
// secret-bearing files, and whether a copyright notice heads the file. Secret files are listed rather than skipped so that an
// indexer can record their names without reading their contents.
//
// A root that git ignores, or that lies in a folder git ignores, is walked
// all the same: it is what the caller asked for.
//
// Limitations: git configuration's includes are not followed in looking
// for core.excludesFile (a nested repository's .git/info/exclude and
// excludes file are read, as its own git reads them), and a pattern
// matches as
// git's do (TestWalkAgreesWithGitRandom holds the walk to git itself) but
// for two shapes no ignore file writes: a bracket expression holding a
// slash, which git reads as one class and the walk as two elements, and
// "**" glued to other characters ("a**/b"), which the walk reads as "*".
package walk
