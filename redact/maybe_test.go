package redact

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		got, want := r.FindIn("config/app.yaml", text), plain.FindIn("config/app.yaml", text)
		if !slices.Equal(got, want) {
			t.Errorf("findings in %.80q:\nwith the prefilters %v\nwithout %v", text, got, want)
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
	want := []string{"assigned-secret", "assigned-secret", "generic-api-key", "kubernetes-secret-yaml", "vault-service-token"}
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
