package redact

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// withoutMaybe is r with every rule's prefilter left out.
func withoutMaybe(r *Redactor) *Redactor {
	c := *r
	c.rules = slices.Clone(r.rules)
	for i := range c.rules {
		c.rules[i].maybe = nil
	}
	return &c
}

// The prefilters skip only texts a rule cannot match: the findings are
// those of the rules run on every window.
func TestMaybeKeepsFindings(t *testing.T) {
	r := Default()
	plain := withoutMaybe(r)
	texts := []string{
		`password = "hunter2hunter2"`,
		`PASSWORD: 'Xk29slQpz0'`,
		`api_key := ` + "`" + `AKsd82jdk29dkslq` + "`",
		`db_password => rb"s3cr3tpass"`,
		`"token": "ghx_29dkslqpz03kdl"`,
		`secret_key ?= f'9sdkj2kd0a'`,
		`export AUTH_KEY=Zk29dk3slq0pQ`,
		`- credentials: k29dKslqp03`,
		`password = get_password()`,
		`token_type = "bearer"`,
		`key = "name"`,
		`if not self.password:`,
		`pass`,
		"passwor\u212a = \"x9dkslqp20dk\"",
		"pa\u017fsword = 'x9dkslqp20dk'",
		"kind: Secret\napiVersion: v1\ndata:\n  password: c2VjcmV0cGFzc3dvcmQxMjM=\n",
		"\u212aind: Secret\ndata:\n  token: c2VjcmV0cGFzc3dvcmQxMjM=\n",
		"data:\n  token: c2VjcmV0cGFzc3dvcmQxMjM=\n",
		"VAULT_TOKEN=s.Zk29dk3slq0pQxZk29dk3slq0p\n",
		"x = 'hvs." + strings.Repeat("aB3_-", 20) + "'\n",
		"os.path.join(settings.BASE_DIR, 's.x')",
		`api_key = "AKd8s0dk2lq9dk3"`,
		`auth_token: '  ZXk29dk3slq0pQ'`,
		`TOKEN=  = "Xk29dk3slq0pQa"`,
		`secret || 'k29dK/slqp+03kdl=='`,
		`"access": "ab"`,
		`key, value = item`,
		"access_key = \"ſk29dk3slq0pQa\"",
	}
	for _, x := range RepositoryFiles() {
		texts = append(texts, string(x))
	}
	for _, text := range texts {
		for _, path := range []string{"config/app.yaml", "conf/app.ini"} {
			got, want := r.FindIn(path, text), plain.FindIn(path, text)
			if !slices.Equal(got, want) {
				t.Errorf("findings in %s's %.80q:\nwith the prefilters %v\nwithout %v", path, text, got, want)
			}
		}
	}
}

// The prefilters of gitleaks' rules hold for the patterns they were
// written for: a new gitleaks version that changes one leaves it out,
// which this test tells.
func TestMaybeInstalled(t *testing.T) {
	var ids []string
	for _, rl := range Default().rules {
		if rl.maybe != nil {
			ids = append(ids, rl.id)
		}
	}
	slices.Sort(ids)
	want := []string{"assigned-secret", "assigned-secret", "generic-api-key", "jwt", "kubernetes-secret-yaml", "url-password", "url-token", "vault-service-token"}
	if !slices.Equal(ids, want) {
		t.Errorf("rules with a prefilter: %v, want %v", ids, want)
	}
}

// RepositoryFiles are the files of this repository, those of 1 MiB or
// less, .git aside: real text, for the tests and benchmarks of both test
// packages.
func RepositoryFiles() [][]byte {
	var out [][]byte
	filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > 1<<20 {
			return nil
		}
		if x, err := os.ReadFile(p); err == nil {
			out = append(out, x)
		}
		return nil
	})
	return out
}

// maybeChecks are the prefilters hone writes for one pattern each, and
// what each must not miss: the pattern's matches, or, for a prefilter
// that judges the value as its rule does, the rule's findings.
func maybeChecks() []maybeCheck {
	matches := func(re *regexp.Regexp) func(string) string { return re.FindString }
	quoted := reRule("assigned-secret", quotedSecret, quotedIsSecret)
	var generic rule
	for _, rl := range Default().rules {
		if rl.id == "generic-api-key" {
			generic = rl
		}
	}
	return []maybeCheck{
		{"quoted assignment", mayAssignQuoted, func(text string) string {
			found := ""
			quoted.match(text, 0, len(text), func(s, e int) { found = text[s:e] })
			return found
		}},
		{"bare assignment", mayAssignBare, matches(bareSecret())},
		{"generic-api-key", func(text string) bool { return mayGenericKey(text, 0) }, matches(regexp.MustCompile(genericKeyPattern))},
		{"generic-api-key, its entropy", generic.maybe, func(text string) string {
			found := ""
			generic.match(text, 0, len(text), func(s, e int) { found = text[s:e] })
			return found
		}},
		{"vault-service-token", mayVaultToken, matches(regexp.MustCompile(vaultTokenPattern))},
		{"jwt", gitleaksMaybe("jwt", jwtPattern, 0), matches(regexp.MustCompile(jwtPattern))},
		{"url-password", mayURLUser, matches(urlPassword())},
		{"url-token", mayURLUser, matches(urlToken())},
	}
}

type maybeCheck struct {
	name  string
	maybe func(string) bool
	// finds returns what must not be missed in a text, "" if nothing.
	finds func(string) string
}

// maybeLine makes a line of the pieces the patterns turn on: names,
// operators, quotes, blanks, values of every length about their bounds,
// and what may end them; half the lines in the order of an assignment.
func maybeLine(rnd *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rnd.IntN(len(xs))] }
	value := func() string {
		n := pick("3", "4", "5", "9", "10", "11", "12", "13", "149", "150", "151", "511", "512", "513")
		k := 0
		for _, c := range n {
			k = 10*k + int(c-'0')
		}
		cls := pick("aB3", "a_.-", "aZ+/", "x=", "q", "a#b", "a,b", "a b", "a\\b", "é", "a\xff", "日本", "\xe6\x97", "a\u212a", "\u017f1",
			"aB3xY7qZ9mK2pL5", "aB3xY7q", "Zk2/9+dQ7mX1")
		// k characters of the class, as the regexp package reads them.
		var rs []string
		for x := cls; x != ""; {
			_, size := utf8.DecodeRuneInString(x)
			rs, x = append(rs, x[:size]), x[size:]
		}
		var b strings.Builder
		for i := range k {
			b.WriteString(rs[i%len(rs)])
		}
		return b.String()
	}
	names := []string{"password", "PASSWORD", "api_key", "apiKey", "Api", "API", "token", "auth", "secret", "access_key", "credentials", "pwd", "key", "my.password", "x-token"}
	if rnd.IntN(2) == 0 {
		return pick("", "  ", "\t", "export ", "EXPORT\t", "- ", "-", "x ", "\n") + pick(names...) + pick("", "_x", ".y", " x-y", strings.Repeat("b", 19), strings.Repeat("b", 20), strings.Repeat("b", 21)) +
			pick("", "\"", "'", "\"'\t", " ' \"", "\"\"\"\"") + pick("", " ", "\t ") + pick("=", ":", ":=", "=>", "?=", "||", ",", ">", ":::=", "==", "", "(") +
			pick("", " ", "  ", "'", "\"", "`", "= ") + pick("", "r", "b", "f", "rb", "bb") + pick("", "\"", "'", "`") + value() +
			pick("", "\"", "'", "`", " ", ";", "#", ",", "\\n", "\\R", "\\", "\r", "\r\n", "\n", "\f", "(", " # c", " x")
	}
	pieces := append(names,
		"export ", "- ", "-", "self.", "  ", "\t", " ",
		"=", ":", ":=", "=>", "?=", "||", ",", ">", ":::=", "==",
		"\"", "'", "`", "r", "b", "f", "rb",
		"abc", "abcdefghij", "k29dKslqp03kdl", "Zk29dk3slq0pQxZk29dk3", "a+b/c==", "====", "x.y-z", "AKsd82jdk29d",
		"#", ";", "\\n", "\\r", "\\", "\r", "\n", "(", ")", "\f", "hvs.", "s.", "\u212a", "\u017f", "é", "\xff", "日本",
		"https://", "ftp://", "user", "@", ":", "host.example", "ey", "eyJhbGciOiJIUzI1NiIsInR5", ".ey", ".")
	var b strings.Builder
	for range 1 + rnd.IntN(12) {
		b.WriteString(pieces[rnd.IntN(len(pieces))])
	}
	return b.String()
}

// TestMaybeNeverMissesAMatch: a prefilter says no only to a text its
// pattern (or rule) finds nothing in, on the lines of this repository and
// on lines made of the patterns' pieces.
func TestMaybeNeverMissesAMatch(t *testing.T) {
	var texts []string
	for _, x := range RepositoryFiles() {
		texts = append(texts, strings.Split(string(x), "\n")...)
	}
	// Values at their bounds in characters of more than a byte, and in
	// bytes of broken UTF-8, each of which the patterns read as one.
	for _, c := range []string{"é", "日", "\xff", "a"} {
		for _, k := range []int{3, 4, 10, 12, 150, 151, 512, 513} {
			v := strings.Repeat(c, k)
			texts = append(texts, "password = \""+v+"\"", "export TOKEN="+v, "  password: "+v+" # x", "api_key = "+v+";")
		}
	}
	texts = append(texts,
		`token = "eyJhbGciOiJIUzI1NiIsInR5cCI6.eyJzdWIiOiIxMjM0NTY3ODkwIiwi.SflKxwRJSMeKKF2QT4fwpM"`,
		"eyJhbGciOiJIUzI1NiIsInR5cCI6.eyAzdWIiOiIxMjM0NTY3ODkwIiwi.",
		"postgres://admin:s3cr3tPassw0rd@db.example.com/app",
		"https://Zk29dk3slq0pQxZk29dk3slq0p@github.com/org/repo")
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 60_000
	if testing.Short() {
		n = 10_000
	}
	for range n {
		texts = append(texts, maybeLine(rnd))
	}
	for _, c := range maybeChecks() {
		for _, text := range texts {
			if !c.maybe(text) {
				if found := c.finds(text); found != "" {
					t.Errorf("%s: the prefilter says no to %q, which holds %q", c.name, text, found)
				}
			}
		}
	}
}

// FuzzMaybe: a prefilter says no only to a text its pattern (or rule)
// finds nothing in.
func FuzzMaybe(f *testing.F) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		f.Add(maybeLine(rnd))
	}
	checks := maybeChecks()
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range checks {
			if !c.maybe(text) {
				if found := c.finds(text); found != "" {
					t.Errorf("%s: the prefilter says no to %q, which holds %q", c.name, text, found)
				}
			}
		}
	})
}
