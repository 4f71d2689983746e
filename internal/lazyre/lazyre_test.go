package lazyre

import "testing"

// The pattern is compiled once, on the first call, and not before.
func TestNew(t *testing.T) {
	bad := New(`(`) // not compiled: no panic yet
	re := New(`^a+b$`)
	if re() != re() {
		t.Error("compiled twice")
	}
	if !re().MatchString("aab") || re().MatchString("b") {
		t.Error("wrong matches")
	}
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic when first used")
		}
	}()
	bad()
}
