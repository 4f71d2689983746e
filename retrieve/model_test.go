package retrieve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/structure"
)

// An excerpt is the whole file when it fits; else the outline and the
// definitions that hold most of the task, within the budget, in line
// order, with the gaps marked.
func TestExcerptText(t *testing.T) {
	var long []string
	var defs []structure.Def
	for i := range 40 {
		name := fmt.Sprintf("helper%d", i)
		if i == 17 {
			name = "checkTokenExpiry"
		}
		defs = append(defs, structure.Def{Name: name, Kind: "function", Line: len(long) + 1, EndLine: len(long) + 10})
		long = append(long, "func "+name+"() {")
		for j := range 8 {
			body := fmt.Sprintf("\tx%d := compute(%d)", j, j)
			if i == 17 && j == 3 {
				body = "\tif token.expiresAt < now { return errExpired }"
			}
			long = append(long, body)
		}
		long = append(long, "}")
	}
	stems := map[string]bool{"token": true, "expir": true}
	for _, tt := range []struct {
		name     string
		lines    []string
		defs     []structure.Def
		budget   int
		want     []string
		wantNot  []string
		maxBytes int
	}{
		{"small file whole", []string{"package a", "func A() {}"}, nil, 500, []string{"2 lines\n", "1| package a\n", "2| func A() {}\n"}, []string{"outline:", "…"}, 2000},
		{"long file: outline and the best definition", long, defs, 300,
			[]string{"400 lines\n", "outline:\n", "171| func checkTokenExpiry() {", "175| \tif token.expiresAt < now { return errExpired }", "180| }\n…\n"},
			[]string{"1| func helper0() {"}, 1300},
		{"nothing matches: the head", long[:200], defs[:20], 150, []string{"1| func helper0() {"}, nil, 700},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := stems
			if tt.name == "nothing matches: the head" {
				st = map[string]bool{"zebra": true}
			}
			got := excerptText(tt.lines, tt.defs, st, tt.budget)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("excerpt lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("excerpt holds %q:\n%s", w, got)
				}
			}
			if len(got) > tt.maxBytes {
				t.Errorf("excerpt of %d bytes for a budget of %d tokens", len(got), tt.budget)
			}
		})
	}
}

// The excerpter gives a file's chosen lines with their numbers, and a
// file not in the index as an error. That it withholds secret-bearing
// files is tested end to end, in modeleval's TestNothingSecretLeaves.
func TestExcerpter(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	tp := parseTask(expiryTask, ix)
	x := &excerpter{ix: ix, tp: tp, src: newSources(ix)}
	ex, err := x.Excerpt("src/auth/tokens.ts", 600)
	if err != nil || ex.Withheld != "" || !strings.Contains(ex.Text, "| ") {
		t.Errorf("tokens.ts: %+v, %v", ex, err)
	}
	if _, err := x.Excerpt("no/such/file.ts", 600); err == nil {
		t.Error("an excerpt of a file not in the index")
	}
	var _ hone.Excerpter = x
}

// A file that holds a secret is withheld from a model whatever its
// excerpt keeps: a private key the excerpt cuts before its end line, and
// a secret that only its kind of file's rule finds (a Kubernetes secret).
func TestExcerptWithholdsCutSecrets(t *testing.T) {
	var key strings.Builder
	key.WriteString("export function signToken(t: string) {\n  return sign(t, signingKey)\n}\n\nconst signingKey = `-----BEGIN RSA PRIVATE KEY-----\n")
	for i := range 50 {
		fmt.Fprintf(&key, "MIIEowIBAAKCAQEA%02dx7mVq0bZ3JrQkH1yT8wPq2LmN4vB6cXe9dR5sK3jU7hG1fA0zY\n", i)
	}
	key.WriteString("-----END RSA PRIVATE KEY-----`\n")
	root := writeFiles(t, map[string]string{
		"src/auth/signing.ts":   key.String(),
		"deploy/db-secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: jwt\ntype: Opaque\ndata:\n  jwt-signing: c3VwZXJzZWNyZXRzaWduaW5na2V5dmFsdWUxMjM0NTY=\n",
		"src/auth/expiry.ts":    "export function tokenExpired(t: Token) {\n  return t.expiresAt < Date.now()\n}\n",
	})
	ix, err := buildIndex(root, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	x := &excerpter{ix: ix, tp: parseTask("token signing key expiry", ix), src: newSources(ix)}
	for _, p := range []string{"src/auth/signing.ts", "deploy/db-secret.yaml"} {
		ex, err := x.Excerpt(p, 120)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Withheld == "" || strings.Contains(ex.Text, "MIIE") || strings.Contains(ex.Text, "c3Vw") {
			t.Errorf("%s: sent %q (withheld %q)", p, ex.Text, ex.Withheld)
		}
	}
	if ex, err := x.Excerpt("src/auth/expiry.ts", 120); err != nil || ex.Withheld != "" {
		t.Errorf("expiry.ts, which holds no secret: %+v, %v", ex, err)
	}
}
