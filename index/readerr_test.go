package index

import (
	"context"
	"strings"
	"testing"

	"github.com/hone-tools/hone/tokenize"
)

// The read methods that return no error record the first one they meet
// for Err: on a closed index, every read.
func TestErrClosed(t *testing.T) {
	ix := build(t, map[string]string{
		"a.go": "package a\n\n// Token checks a token.\nfunc Token() { Check() }\n",
		"b.go": "package a\n\nfunc Check() {}\n",
	})
	if err := ix.Err(); err != nil {
		t.Fatalf("an index just built: %v", err)
	}
	e := ix.Entry("a.go")
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	stem := tokenize.Stem("token")
	if d := ix.Doc("a.go"); d != nil {
		t.Errorf("a closed index read a doc: %+v", d)
	}
	first := ix.Err()
	if first == nil || !strings.Contains(first.Error(), "closed") {
		t.Fatalf("Err after a read on a closed index: %v", first)
	}
	if IsDamaged(first) {
		t.Errorf("a closed index reported as damaged: %v", first)
	}
	// The other reads fail alike, without a panic, and leave the first
	// error as it was.
	ix.DF(stem)
	ix.Surface(stem)
	ix.Run(Search{Terms: []QueryTerm{{Stem: stem, Weight: 1}}})
	ix.Cooccur([]string{stem})
	ix.DefinersOf([]string{"Check"})
	ix.RelatedAll([]string{stem}, 3)
	if o, err := ix.Outline(e); err != nil || len(o.Defs) == 0 {
		t.Errorf("the outline of a closed index's file, made from the file: %+v, %v", o, err)
	}
	if err := ix.Snapshot(context.Background()); err == nil {
		t.Error("Snapshot of a closed index succeeded")
	}
	if err := ix.Err(); err != first {
		t.Errorf("Err changed from %v to %v: it reports the first error", first, err)
	}
}

// A blob that fails its checksum is recorded as damage, the first error,
// which later ones leave in place.
func TestErrDamagedBlob(t *testing.T) {
	ix := build(t, map[string]string{
		"a.go": "package a\n\nfunc Token() {}\n",
		"b.go": "package a\n\nfunc Check() {}\n",
	})
	if _, err := ix.db.Exec(`UPDATE files SET doc = x'00112233445566778899' WHERE path = 'b.go'`); err != nil {
		t.Fatal(err)
	}
	if err := ix.Snapshot(context.Background()); err != nil { // read again, caches dropped
		t.Fatal(err)
	}
	if d := ix.Doc("a.go"); d == nil {
		t.Fatal("the undamaged file's doc is missing")
	}
	if err := ix.Err(); err != nil {
		t.Fatalf("Err before the damage was read: %v", err)
	}
	if d := ix.Doc("b.go"); d != nil {
		t.Errorf("a damaged doc was read: %+v", d)
	}
	first := ix.Err()
	if first == nil || !IsDamaged(first) {
		t.Fatalf("Err after reading a damaged doc: %v, want damage", first)
	}
	ix.Close()
	ix.DF(tokenize.Stem("check"))
	if err := ix.Err(); err != first {
		t.Errorf("Err changed from %v to %v: it reports the first error", first, err)
	}
}
