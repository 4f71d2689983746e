package bench

import (
	"reflect"
	"testing"

	"github.com/hone-tools/hone/pack"
)

func TestPackRow(t *testing.T) {
	p := &pack.Pack{Tokens: 900, Ranges: []pack.Range{{Path: "a.py", Start: 1, End: 10}, {Path: "a.py", Start: 40, End: 60}, {Path: "b.go", Start: 1, End: 200}}}
	hunks := []Hunk{
		{"a.py", 5, 8},   // inside
		{"a.py", 8, 12},  // 3 of 5 lines: 60%, held
		{"a.py", 9, 13},  // 2 of 5: not
		{"a.py", 38, 41}, // 2 of 4: not
		{"a.py", 60, 60}, // one line
		{"c.rs", 1, 3},   // a file the pack lacks
		{"new.go", 0, 5}, // a file the fix creates: no pack holds it
	}
	got := packRow(p, 1000, hunks)
	want := PackRow{Budget: 1000, Tokens: 900, Hunks: 6, Held: 3}
	if got != want {
		t.Errorf("packRow = %+v, want %+v", got, want)
	}
}

func TestSummarizePacks(t *testing.T) {
	rows := []Row{
		{Packs: []PackRow{{Budget: 2000, Tokens: 1900, Hunks: 2, Held: 2}, {Budget: 8000, Tokens: 7000, Hunks: 2, Held: 2}}},
		{Packs: []PackRow{{Budget: 2000, Tokens: 1500, Hunks: 3, Held: 1}, {Budget: 8000, Tokens: 6000, Hunks: 3, Held: 3}}},
		{Packs: []PackRow{{Budget: 2000, Tokens: 1000, Hunks: 1, Held: 0}, {Budget: 8000, Tokens: 5000, Hunks: 1, Held: 0}}},
		{Packs: []PackRow{{Budget: 2000, Tokens: 100, Hunks: 0}, {Budget: 8000, Tokens: 100, Hunks: 0}}}, // nothing to hold
		{}, // a row without packs
	}
	got := SummarizePacks(rows)
	want := []PackSummary{
		{Budget: 2000, N: 3, Every: 100.0 / 3, Any: 200.0 / 3, Tokens: 1250},
		{Budget: 8000, N: 3, Every: 200.0 / 3, Any: 200.0 / 3, Tokens: 5500},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SummarizePacks = %+v\nwant %+v", got, want)
	}
	if got := SummarizePacks([]Row{{}}); got != nil {
		t.Errorf("SummarizePacks without packs = %+v, want none", got)
	}
}
