package retrieve

import "testing"

// A reason says, for a person, what in the file matched which of the
// task's words.
func TestMatchText(t *testing.T) {
	for _, c := range []struct {
		m    match
		want string
	}{
		{match{label: "token", where: where{field: "name"}}, `named for "token"`},
		{match{label: "token", where: where{field: "name", as: "jwt"}}, `named for "jwt" (for "token")`},
		{match{label: "configured / set", where: where{field: "definitions", def: "make_default_options_response", as: "options"}}, `defines make_default_options_response ("options", for "configured")`},
		{match{label: "expiry", where: where{field: "definitions", def: "ACCESS_TOKEN_EXPIRY"}}, `defines ACCESS_TOKEN_EXPIRY ("expiry")`},
		{match{label: "expiry", where: where{field: "body", as: "ttl"}}, `"ttl" in its code (for "expiry")`},
		{match{label: "cookie", where: where{field: "comments"}}, `"cookie" in its comments`},
		{match{label: "auth", where: where{field: "path"}}, `in a folder named for "auth"`},
		{match{label: "src/a.py", where: where{field: "named"}}, `the task names it`},
	} {
		if got := c.m.text(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.m, got, c.want)
		}
	}
}

func TestMatchesText(t *testing.T) {
	def := func(label, name, as string) match {
		return match{label: label, where: where{field: "definitions", def: name, as: as}}
	}
	name := func(label string) match { return match{label: label, where: where{field: "name"}} }
	for _, c := range []struct {
		name    string
		matched []match
		want    string
	}{
		{"one each", []match{name("token"), def("expiry", "EXPIRY", "")}, `named for "token"; defines EXPIRY ("expiry")`},
		{"one definition, two words", []match{def("token", "TOKEN_EXPIRY", ""), name("auth"), def("expiry", "TOKEN_EXPIRY", "")},
			`defines TOKEN_EXPIRY ("token", "expiry"); named for "auth"`},
		{"said its own way", []match{def("token", "JWT_TTL", "jwt"), def("expiry", "JWT_TTL", "ttl")},
			`defines JWT_TTL ("jwt", for "token"; "ttl", for "expiry")`},
		{"the rest counted", []match{name("a"), name("b"), name("c"), name("d"), name("e")},
			`named for "a"; named for "b"; named for "c"; 2 more of the task's words`},
		{"a word past the first few joins its definition", []match{def("a", "F", ""), name("b"), name("c"), name("d"), def("e", "F", "")},
			`defines F ("a", "e"); named for "b"; named for "c"; 1 more of the task's words`},
	} {
		if got := matchesText(c.matched, 3); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
