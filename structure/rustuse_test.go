package structure

import (
	"reflect"
	"strings"
	"testing"
)

func TestRustUsePaths(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"std::collections::HashMap", []string{"std::collections::HashMap"}},
		{"crate::conn::{Conn, Dial}", []string{"crate::conn::Conn", "crate::conn::Dial"}},
		{"super::pool as p", []string{"super::pool"}},
		{"a::{self, b::{C, D as E}, f::*}", []string{"a", "a::b::C", "a::b::D", "a::f"}},
		{"crate::{\n    runtime::task, // the tasks\n    /* io */ io::{Read},\n}", []string{"crate::runtime::task", "crate::io::Read"}},
		{"::std::fmt", []string{"std::fmt"}},
		{"r#type::Kind", []string{"type::Kind"}},
		{"self::x::Y", []string{"self::x::Y"}},
		{"*", nil},
		{"{a, b}", []string{"a", "b"}},
		{"crate::a::{b, c", []string{"crate::a::b", "crate::a::c"}}, // a line of a tree spread over several
		{"a::{,,b}", []string{"a::b"}},
		{"", nil},
		{"util", []string{"util"}},
	}
	for _, tt := range tests {
		if got := RustUsePaths(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("RustUsePaths(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A path written inside modules in the file climbs out of them first.
func TestRustOuterPath(t *testing.T) {
	tests := []struct {
		path   string
		inline int
		want   string // "" for no import
	}{
		{"super::x", 0, "super::x"},
		{"super", 1, ""},           // use super::*; in mod tests
		{"super::f", 1, "self::f"}, // the file's own module
		{"super::super::y", 1, "super::y"},
		{"super::x", 2, ""}, // the outer of two inline modules
		{"super::super::x", 2, "self::x"},
		{"self::a", 1, ""},
		{"crate::z", 3, "crate::z"},
		{"std::fmt", 1, "std::fmt"},
	}
	for _, tt := range tests {
		got, ok := rustOuterPath(tt.path, tt.inline)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("rustOuterPath(%q, %d) = %q, want %q", tt.path, tt.inline, got, tt.want)
		}
	}
}

func TestRustUsePathsBounded(t *testing.T) {
	deep := strings.Repeat("a::{", 1000) + "b" + strings.Repeat("}", 1000)
	if got := RustUsePaths(deep); len(got) > maxUsePaths {
		t.Errorf("%d paths from a deep tree", len(got))
	}
	var sb strings.Builder
	sb.WriteString("a::{")
	for i := 0; i < 1000; i++ {
		sb.WriteString("x")
		sb.WriteString(strings.Repeat("y", i%7+1))
		sb.WriteString(string(rune('a' + i%26)))
		sb.WriteString(", ")
	}
	sb.WriteString("}")
	if got := RustUsePaths(sb.String()); len(got) != maxUsePaths {
		t.Errorf("%d paths from a wide tree, want %d", len(got), maxUsePaths)
	}
}

func FuzzRustUsePaths(f *testing.F) {
	for _, s := range []string{"crate::a::{b, c::{D, E as F}, self}", "::std::*", "r#x::{/* c */ y}", "a::{{{", "}}}::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := RustUsePaths(s)
		if len(got) > maxUsePaths {
			t.Fatalf("%d paths", len(got))
		}
		for _, p := range got {
			if p == "" || strings.HasPrefix(p, "::") || strings.HasSuffix(p, "::") || strings.Contains(p, "::::") {
				t.Fatalf("path %q from %q", p, s)
			}
		}
	})
}
