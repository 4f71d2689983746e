package history

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/hone-tools/hone/walk"
)

// A read of the history starts by asking git which repository and head a
// folder has (git rev-parse), which costs a process: 10–15 ms on a
// 2-core machine, beside a retrieve's 200 and a no-change update's 50.
// For a plain repository, the files git reads to answer are read here
// instead; anything past plain asks git.

// headQuery is what the read asks git: the repository's git directory,
// absolute and with links resolved; the folder's path below the work
// tree's top, with a slash after it ("" at the top); the shallow file's
// path; and the head's commit.
type headQuery struct {
	gitDir, prefix, shallow, head string
}

// fastHead answers the read's git rev-parse for HEAD without git, in a
// plain repository: found from root as git finds it, on root's file
// system, the user's own, its HEAD a commit or a branch whose ref is a
// file or a line of packed-refs. false leaves the answer to git: a
// reftable, a core.worktree, a branch not yet made, a HEAD or ref it
// cannot read.
func fastHead(root string) (headQuery, bool) {
	repo, ok := walk.FindRepository(root)
	if !ok || !sameOwnerAndDevice(root, repo.Top, repo.GitDir, repo.CommonDir) {
		return headQuery{}, false
	}
	if !plainConfig(filepath.Join(repo.CommonDir, "config")) {
		return headQuery{}, false
	}
	if _, err := os.Lstat(filepath.Join(repo.CommonDir, "reftable")); err == nil {
		return headQuery{}, false
	}
	gitDir, err := filepath.EvalSymlinks(repo.GitDir)
	if err != nil {
		return headQuery{}, false
	}
	head, ok := resolveRef(repo, "HEAD", 0)
	if !ok {
		return headQuery{}, false
	}
	common, err := filepath.EvalSymlinks(repo.CommonDir)
	if err != nil {
		return headQuery{}, false
	}
	q := headQuery{gitDir: gitDir, shallow: filepath.Join(common, "shallow"), head: head}
	if repo.Below != "" {
		q.prefix = repo.Below + "/"
	}
	return q, true
}

// plainConfig reports whether a repository's configuration sets nothing
// that moves what rev-parse answers: no core.worktree (a submodule's
// sets one), no refStorage (a reftable), no include. The file is scanned
// for the words, in any case: a mention in a comment or a value asks git,
// which costs a process, never a wrong answer.
func plainConfig(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	lower := bytes.ToLower(data)
	return !bytes.Contains(lower, []byte("worktree")) && !bytes.Contains(lower, []byte("refstorage")) &&
		!bytes.Contains(lower, []byte("[include"))
}

// maxRefDepth bounds a chain of symbolic refs.
const maxRefDepth = 5

// resolveRef returns the commit the ref name leads to: a loose ref's file
// (HEAD and refs/worktree/, refs/bisect/ in the worktree's own git
// directory; the rest in the common one), else packed-refs. HEAD may lead
// to a branch (refs/heads/); a branch to a commit.
func resolveRef(repo walk.Repository, name string, depth int) (string, bool) {
	if depth > maxRefDepth {
		return "", false
	}
	dir := repo.CommonDir
	if name == "HEAD" || strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/bisect/") {
		dir = repo.GitDir
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	switch {
	case err == nil:
		line := strings.TrimRight(string(data), "\n")
		if target, ok := strings.CutPrefix(line, "ref: "); ok {
			if !strings.HasPrefix(target, "refs/heads/") || strings.Contains(target, "..") {
				return "", false
			}
			return resolveRef(repo, target, depth+1)
		}
		if !isObjectName(line) {
			return "", false
		}
		return line, true
	case !os.IsNotExist(err) || name == "HEAD":
		return "", false
	}
	return packedRef(filepath.Join(repo.CommonDir, "packed-refs"), name)
}

// packedRef finds a ref in a packed-refs file: "<hash> <name>" lines,
// after a "# pack-refs" header, each maybe followed by a "^<hash>" line
// of the object a tag leads to.
func packedRef(path, name string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		hash, ref, ok := strings.Cut(line, " ")
		if ok && ref == name {
			return hash, isObjectName(hash)
		}
	}
	return "", false
}

// isObjectName reports whether s is a whole object name: 40 or 64 hex
// digits, in lower case.
func isObjectName(s string) bool {
	return (len(s) == 40 || len(s) == 64) && isHash(s)
}
