package retrieve

import (
	"math"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/structure"
)

// A changelog is part of a change where the project keeps one entry a
// change: many projects add a line to it with most fixes, others write
// theirs at release time or elsewhere. How often the project's recent
// changes to the code under a changelog's folder changed it too is the
// chance that this change does: its relevance, on the ranking's scale.

// changelogCommits: the newest commits of the history a changelog's share
// is counted over, those that changed code under its folder.
const changelogCommits = 300

// changelogShares are the repository's changelogs (structure.ChangelogOwner) with
// the share of the newest changelogCommits commits that changed code
// under the changelog's folder and changed it too.
func changelogShares(ix *index.Index, log *history.Log) map[string]float64 {
	if log == nil {
		return nil
	}
	owners := map[string]string{} // each changelog's folder
	for _, e := range ix.Entries() {
		if dir, ok := structure.ChangelogOwner(e.Path); ok {
			owners[e.Path] = dir
		}
	}
	if len(owners) == 0 {
		return nil
	}
	out := map[string]float64{}
	for l, dir := range owners {
		n, with := 0, 0
		for _, c := range log.Commits {
			if n == changelogCommits {
				break
			}
			code, changed := false, false
			for _, f := range c.Files {
				if f == l {
					changed = true
				} else if (dir == "." || strings.HasPrefix(f, dir+"/")) && structure.IsCode(structure.Language(f)) {
					code = true
				}
			}
			if code {
				n++
				if changed {
					with++
				}
			}
		}
		if n > 0 && with > 0 {
			out[l] = float64(with) / float64(n)
		}
	}
	return out
}

// withChangelog places the changelog of the ranking's best file (its
// folder's, else the root's) where its share says, among files ranked by
// the same scale: after the first file at the highest, for a changelog is
// written with a change, never instead of it. A changelog ranked higher
// already stays where it is.
func withChangelog(ranking []hone.Ranked, shares map[string]float64) []hone.Ranked {
	if len(ranking) == 0 || len(shares) == 0 {
		return ranking
	}
	// The deepest folder's; of two in one folder (a ChangeLog and a
	// NEWS.md), the one its changes write more, then by name.
	best := ranking[0].Path
	log, depth := "", -1
	for l, sh := range shares {
		dir, _ := structure.ChangelogOwner(l)
		d := strings.Count(dir, "/") + 1
		if dir == "." {
			d = 0
		} else if !strings.HasPrefix(best, dir+"/") {
			continue
		}
		if d > depth || d == depth && (sh > shares[log] || sh == shares[log] && l < log) {
			log, depth = l, d
		}
	}
	if log == "" || log == best {
		return ranking
	}
	return placeByShare(ranking, log, shares[log])
}

// placeByShare places the file p, a part of the change the best file's
// changes often hold too, where share, the chance that this change holds
// it, says among files ranked by the same scale: after the first file at
// the highest, never instead of it. A file ranked higher already stays
// where it is.
func placeByShare(ranking []hone.Ranked, p string, share float64) []hone.Ranked {
	if len(ranking) == 0 || p == ranking[0].Path {
		return ranking
	}
	at := len(ranking)
	for i := 1; i < len(ranking); i++ {
		if ranking[i].Relevance < share {
			at = i
			break
		}
	}
	cur := -1
	for i, r := range ranking {
		if r.Path == p {
			cur = i
			break
		}
	}
	if cur >= 0 && cur <= at {
		return ranking
	}
	entry := hone.Ranked{Path: p}
	if cur >= 0 {
		entry = ranking[cur]
		ranking = append(ranking[:cur:cur], ranking[cur+1:]...)
	}
	// Its relevance is its share, held to the file before it's: the
	// ranking stays in order of relevance.
	entry.Relevance = math.Round(min(share, ranking[at-1].Relevance)*100) / 100
	out := make([]hone.Ranked, 0, len(ranking)+1)
	out = append(out, ranking[:at]...)
	out = append(out, entry)
	return append(out, ranking[at:]...)
}
