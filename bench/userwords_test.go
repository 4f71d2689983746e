package bench

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestUserWordsSets checks the sets of tasks in users' words kept in the
// repository: each instance is whole (its change, its language, its
// hunks in its gold files), no instance is listed twice, and no
// repository of theirs is one the general vocabulary may be mined from:
// the vocabulary must not learn from the code it is measured on.
func TestUserWordsSets(t *testing.T) {
	sets, err := filepath.Glob(filepath.Join("userwords", "*.jsonl"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no set in userwords/: %v", err)
	}
	excluded, err := ReadExcluded(filepath.Join("vocab", "excluded.txt"))
	if err != nil {
		t.Fatal(err)
	}
	corpus, _, err := ReadVocabList(filepath.Join("vocab", "repos.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	mined := map[string]bool{}
	for _, r := range corpus {
		mined[strings.ToLower(r.Repo)] = true
	}
	hash := regexp.MustCompile(`^[0-9a-f]{40}$`)
	for _, set := range sets {
		ins, err := ReadInstances(set)
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		seen := map[string]bool{}
		for _, in := range ins {
			where := filepath.Base(set) + ": " + in.ID
			if seen[in.ID] {
				t.Errorf("%s is listed twice", where)
			}
			seen[in.ID] = true
			if !hash.MatchString(in.BaseCommit) || !hash.MatchString(in.Commit) {
				t.Errorf("%s: base_commit and commit must be full hashes, got %q and %q", where, in.BaseCommit, in.Commit)
			}
			if in.TaskLanguage != "en" && in.TaskLanguage != "zh" {
				t.Errorf("%s: task_language %q, want en or zh", where, in.TaskLanguage)
			}
			if in.Language == "" || strings.TrimSpace(in.Problem) == "" {
				t.Errorf("%s: no language or no task", where)
			}
			repo := strings.ToLower(in.Repo)
			if !excluded[repo] {
				t.Errorf("%s: %s is not in vocab/excluded.txt, so the vocabulary could be mined from it", where, in.Repo)
			}
			if mined[repo] {
				t.Errorf("%s: %s is in the vocabulary's corpus (vocab/repos.tsv)", where, in.Repo)
			}
			if len(in.GoldHunks) == 0 {
				t.Errorf("%s: no gold_hunks (hone bench hunks adds them)", where)
			}
			for _, h := range in.GoldHunks {
				if !slices.Contains(in.Gold, h.Path) || h.Start < 0 || h.End < h.Start {
					t.Errorf("%s: hunk %s:%d-%d is not in a gold file's lines", where, h.Path, h.Start, h.End)
				}
			}
		}
	}
}
