package index

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// A flush or a merge sets the segment of rows already written: stored
// biased (segBias), every segment takes the same two bytes as the delta's
// 0, so that a row keeps its size and small rows, written packed, do not
// split their pages.
func TestSegmentsStoredBiased(t *testing.T) {
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("pkg%d/f%d.py", i%10, i)] = fmt.Sprintf("def handler_%d(value):\n    return value\n", i)
	}
	repo := t.TempDir()
	ix := mustBuild(t, repo, files)
	// A change after the segments: a file of the delta beside them.
	writeTree(t, repo, map[string]string{"pkg0/f0.py": "def changed(value):\n    return value\n"})
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Status(context.Background())
	if err != nil || st.Segments == 0 || st.Delta == 0 {
		t.Fatalf("status %+v, %v: the test needs a segment and a delta", st, err)
	}
	db, err := sql.Open("sqlite", "file:"+ix.Path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var lo, hi, delta int64
	if err := db.QueryRow(`SELECT MIN(seg), MAX(seg), SUM(seg = ?) FROM files`, segBias).Scan(&lo, &hi, &delta); err != nil {
		t.Fatal(err)
	}
	// SQLite stores 128 to 32,767 in two bytes.
	if lo < 128 || hi > 32767 || int(delta) != st.Delta {
		t.Errorf("stored segments %d to %d, %d at the delta's (status: %d): want all in two bytes' range, the delta's at %d", lo, hi, delta, st.Delta, segBias)
	}
	if e := ix.Entry("pkg0/f0.py"); e == nil || e.seg != 0 {
		t.Errorf("the changed file's entry %+v: want it in the delta, segment 0", e)
	}
	if e := ix.Entry("pkg1/f1.py"); e == nil || e.seg <= 0 {
		t.Errorf("an unchanged file's entry %+v: want it in a segment", e)
	}
}
