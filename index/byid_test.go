package index

import "testing"

func TestEntriesByID(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ids    []int64
		sparse bool
	}{
		{"none", nil, false},
		{"in order", []int64{1, 2, 3, 4}, false},
		{"gaps", []int64{3, 9, 4000}, false},
		{"far apart", []int64{1, 1 << 40}, true},
		{"negative", []int64{-5, 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := map[string]*Entry{}
			for i, id := range tc.ids {
				e := &Entry{ID: id, Path: string(rune('a' + i))}
				cat[e.Path] = e
			}
			byID := newEntriesByID(cat)
			if got := byID.sparse != nil; got != tc.sparse {
				t.Errorf("sparse = %v, want %v", got, tc.sparse)
			}
			for _, e := range cat {
				if got := byID.get(e.ID); got != e {
					t.Errorf("get(%d) = %v, want %s", e.ID, got, e.Path)
				}
			}
			for _, id := range []int64{0, -1, 5, 1 << 41} {
				want := (*Entry)(nil)
				for _, e := range cat {
					if e.ID == id {
						want = e
					}
				}
				if got := byID.get(id); got != want {
					t.Errorf("get(%d) = %v, want %v", id, got, want)
				}
			}
		})
	}
}
