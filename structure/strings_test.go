package structure

import (
	"reflect"
	"testing"
)

func TestStrings(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []string
	}{
		{"go", "flag.Int(\"max-fail\", 0, \"stop after N failures\") // \"not\" a string\nvar s = `raw\nlines`\n", []string{"max-fail", "stop after N failures", "raw\nlines"}},
		{"python", "p.add_argument('--x', help=\"it's \\\"quoted\\\"\")  # 'no'\n'''doc'''\ns = 'open\n", []string{"--x", "it's \\\"quoted\\\""}},
		{"javascript", "a('', \"b\")", []string{"b"}},
		{"sql", "SELECT 'a'; -- one\n", nil},
		{"markdown", "\"quoted\"\n", nil},
	}
	for _, tt := range tests {
		_, spans := Spans(tt.lang, []byte(tt.src))
		var got []string
		for _, sp := range spans {
			got = append(got, tt.src[sp[0]:sp[1]])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: strings = %q, want %q", tt.lang, got, tt.want)
		}
	}
}

func FuzzSpans(f *testing.F) {
	f.Add("go", "/* a */ // b \"c\" `d`")
	f.Add("python", "'''x''' # y \"z\" 'w")
	f.Fuzz(func(t *testing.T, lang, src string) {
		comments, strs := Spans(lang, []byte(src))
		for _, spans := range [][][2]int{comments, strs} {
			for i, sp := range spans {
				if sp[0] > sp[1] || sp[1] > len(src) || i > 0 && sp[0] < spans[i-1][1] {
					t.Fatalf("span %v out of order or bounds in %d bytes", sp, len(src))
				}
			}
		}
	})
}

func TestLineCode(t *testing.T) {
	for _, c := range []struct {
		in      string
		slashes bool
		want    string
	}{
		{`x = expire(token)`, true, `x = expire(token)`},
		{`log.Errorf("token %s expired", id)`, true, `log.Errorf("                ", id)`},
		{`print('it\'s the token')  # expiry`, true, `print('               ')  `},
		{"msg := `token`", true, "msg := `     `"},
		{`refresh(session) // token expiry`, true, `refresh(session) `},
		{`"unclosed token`, true, `"              `},
		// Python's // divides; a # in a string starts no comment.
		{`def f(n=a // 2, sep="#("):  # noqa`, false, `def f(n=a // 2, sep="  "):  `},
		{`    """Docstring`, false, `    """         `},
	} {
		if got := LineCode(c.in, c.slashes); got != c.want {
			t.Errorf("LineCode(%q, %v) = %q, want %q", c.in, c.slashes, got, c.want)
		}
	}
}
