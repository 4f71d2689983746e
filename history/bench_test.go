package history

import (
	"fmt"
	"path/filepath"
	"testing"
)

// synthetic is a history of n commits, each with a dozen terms of a
// vocabulary of 5,000 and three files of 2,000.
func synthetic(n int) []*Commit {
	cs := make([]*Commit, n)
	for i := range cs {
		c := &Commit{Hash: fmt.Sprintf("%040x", i), Subject: fmt.Sprintf("change %d", i)}
		if i+1 < n {
			c.parents = []string{fmt.Sprintf("%040x", i+1)}
		}
		for k := range 12 {
			c.terms = append(c.terms, fmt.Sprintf("term%d", (i*7+k*131)%5000))
		}
		for k := range 3 {
			c.Files = append(c.Files, fmt.Sprintf("pkg%d/file%d.py", (i+k)%40, (i*3+k)%2000))
		}
		cs[i] = c
	}
	return cs
}

// BenchmarkDecodePack: reading a cache of MaxCommits commits.
func BenchmarkDecodePack(b *testing.B) {
	data := encodePack(pack{commits: synthetic(MaxCommits)})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodePack(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimilar: ranking MaxCommits commits against an issue.
func BenchmarkSimilar(b *testing.B) {
	l := &Log{Commits: synthetic(MaxCommits)}
	task := "term12 fails when term400 is set\nterm12 and term99 and term4000 are read, then term7 breaks"
	for b.Loop() {
		FileScores(l.Similar(task, 10))
	}
}

// BenchmarkNamed: finding the commits a task names, by hash and by
// number, among MaxCommits commits, a fifth of which cite an issue.
func BenchmarkNamed(b *testing.B) {
	cs := synthetic(MaxCommits)
	for i, c := range cs {
		if i%5 == 0 {
			c.Subject = fmt.Sprintf("Fixed #%d -- change %d", 10000+i, i)
		}
	}
	l := &Log{Commits: cs}
	task := "broken since " + cs[12345].Hash[:10] + ", like #12000 and ticket:15000; see #99 and #100"
	for b.Loop() {
		if len(l.Named(task)) == 0 {
			b.Fatal("named nothing")
		}
	}
}

// BenchmarkReadPack: loading a cache of MaxCommits commits from its
// file, as every read of the history does.
func BenchmarkReadPack(b *testing.B) {
	p := filepath.Join(b.TempDir(), "history.pack")
	pk := pack{commits: synthetic(MaxCommits)}
	if err := writePack(p, pk); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(encodePack(pk))))
	for b.Loop() {
		if pk, err := readPack(p); err != nil || len(pk.commits) != MaxCommits {
			b.Fatalf("%d commits, %v", len(pk.commits), err)
		}
	}
}

// BenchmarkWalk: a window of MaxCommits commits out of the cache, as a
// read of a head read before does; every tenth commit merges a branch.
func BenchmarkWalk(b *testing.B) {
	cs := synthetic(MaxCommits + 100)
	c := &cache{}
	for i, cm := range cs {
		cm.time = int64(len(cs) - i)
		if i%10 == 0 && i+3 < len(cs) {
			cm.parents = append(cm.parents, cs[i+3].Hash)
		}
	}
	c.add(cs)
	for b.Loop() {
		n := 0
		c.walk(cs[0].Hash, func(*Commit) { n++ })
		if n != MaxCommits {
			b.Fatalf("walked %d commits, want %d", n, MaxCommits)
		}
	}
}
