package pack

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// literalsByRegexp is what codeString's matches give: each literal's
// content, in order.
func literalsByRegexp(text string) []string {
	var out []string
	for _, m := range codeString().FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

func literalsWritten(text string) []string {
	var out []string
	stringLiterals(text, func(content string) bool {
		out = append(out, content)
		return true
	})
	return out
}

// The string literals written out are the regexp's, literal for literal.
func TestStringLiteralsAsRegexp(t *testing.T) {
	for _, text := range []string{
		``, `"`, `""`, `''`, `"a"`, `'a'`, `"a\"b"`, `'it\'s'`, `"a\\"b"`, `"a\`, `"a\` + "\n" + `b"`,
		`"line` + "\n" + `end"`, `say("hello world", 'x') + "%s done"`, `"it's"`, `'say "hi"'`,
		`"unterminated 'inner' ok"`, `"é\"ü"`, "\"\xff\\\xfe\"", `x = "a" "b" 'c'`, `"\` + "\n",
	} {
		if got, want := literalsWritten(text), literalsByRegexp(text); !slices.Equal(got, want) {
			t.Errorf("%q: %q, the regexp's %q", text, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(20, 26))
	alphabet := []string{`"`, `'`, `\`, "\n", "a", " ", "é", "\xff", "-", "_"}
	for range 20000 {
		var b []byte
		for range rng.IntN(24) {
			b = append(b, alphabet[rng.IntN(len(alphabet))]...)
		}
		text := string(b)
		if got, want := literalsWritten(text), literalsByRegexp(text); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, the regexp's %q", text, got, want)
		}
	}
}

// Stopping early stops at the literal fn declined.
func TestStringLiteralsStop(t *testing.T) {
	var seen []string
	stringLiterals(`"one" "two" "three"`, func(c string) bool {
		seen = append(seen, c)
		return c != "two"
	})
	if !slices.Equal(seen, []string{"one", "two"}) {
		t.Errorf("seen %q, want one and two", seen)
	}
}

func FuzzStringLiterals(f *testing.F) {
	for _, s := range []string{`say("hello world", 'x')`, `"a\"b" '\'`, "\"a\\\nb\"", "\"\xff\\\xfe\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := literalsWritten(text), literalsByRegexp(text); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, the regexp's %q", text, got, want)
		}
	})
}
