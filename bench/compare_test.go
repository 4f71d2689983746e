package bench

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	row := func(id string, ranks ...int) Row { return Row{ID: id, GoldRanks: ranks} }
	old := []Row{row("a", 1), row("b", 4), row("c", 0), row("d", 2, 7), row("only-old", 1)}
	new := []Row{row("a", 1), row("b", 1), row("c", 12), row("d", 2, 0), row("only-new", 1)}
	oldAt, newAt, n, changes := Compare(old, new, []int{1, 5, 10})
	if n != 4 {
		t.Errorf("%d instances in both, want 4", n)
	}
	if !slices.Equal(oldAt, []int{1, 2, 3}) || !slices.Equal(newAt, []int{2, 2, 2}) {
		t.Errorf("Acc counts %v -> %v, want [1 2 3] -> [2 2 2]", oldAt, newAt)
	}
	want := []Change{{"b", 4, 1}, {"c", 0, 12}, {"d", 7, 0}}
	if !slices.Equal(changes, want) {
		t.Errorf("changes %v, want %v (the biggest gain first)", changes, want)
	}
}
