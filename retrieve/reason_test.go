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
