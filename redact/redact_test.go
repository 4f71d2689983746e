package redact_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hone-tools/hone/redact"
)

// Planted is a secret of each format hone must hide, made at run time so
// that no secret sits in the source.
type Planted struct {
	Name, Rule string // Rule: the placeholder's rule id, "" for any
	Text       string // the line or lines that hold it
	Secret     string
}

// PlantedSecrets makes one of each format, seeded.
func PlantedSecrets(seed uint64) []Planted {
	rng := rand.New(rand.NewPCG(seed, 7))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	const (
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower  = "abcdefghijklmnopqrstuvwxyz"
		digits = "0123456789"
		alnum  = upper + lower + digits
	)
	aws := "AKIA" + pick(upper+"234567", 16)
	ghp := "ghp_" + pick(alnum, 36)
	ghs := "ghs_" + pick(alnum, 36)
	fine := "github_pat_" + pick(alnum+"_", 82)
	stripe := "sk_live_" + pick(alnum, 24)
	gcp := "AIza" + pick(alnum+"-_", 35)
	slack := "xoxb-" + pick(digits, 12) + "-" + pick(digits, 12) + "-" + pick(alnum, 24)
	glpat := "glpat-" + pick(alnum+"-_", 20)
	openai := "sk-proj-" + pick(alnum+"-_", 100) + "T3BlbkFJ" + pick(alnum+"-_", 40)
	anthropic := "sk-ant-api03-" + pick(alnum+"-_", 93) + "AA"
	npm := "npm_" + pick(alnum, 36)
	body := pick(alnum+"+/", 64) + "\n" + pick(alnum+"+/", 64) + "\n" + pick(alnum+"+/", 40)
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----"
	urlPass := "Tr0ub4dor" + pick(alnum, 6)
	yamlPass := "s3cr3t-" + pick(alnum, 8)
	envKey := pick(alnum, 32)
	envDefault := "default-" + pick(alnum, 12)
	generic := pick(alnum, 40)
	return []Planted{
		{"aws access key", "aws-access-token", "AWS_ACCESS_KEY_ID = \"" + aws + "\"", aws},
		{"aws key alone", "aws-access-token", "key id " + aws + " in prose", aws},
		{"github classic token", "github-pat", "token: " + ghp, ghp},
		{"github token in a remote url", "", "url = https://x-access-token:" + ghs + "@github.com/acme/app.git", ghs},
		{"github fine-grained pat", "github-fine-grained-pat", "GH_TOKEN=" + fine, fine},
		{"stripe live key", "stripe-access-token", "stripe.api_key = '" + stripe + "'", stripe},
		{"google api key", "gcp-api-key", `const mapsKey = "` + gcp + `";`, gcp},
		{"slack bot token", "slack-bot-token", "SLACK=" + slack, slack},
		{"gitlab pat in a remote url", "", "https://oauth2:" + glpat + "@gitlab.com/acme/app.git", glpat},
		{"openai key", "", "OPENAI_API_KEY=" + openai, openai},
		{"anthropic key", "", "client = Anthropic(api_key=\"" + anthropic + "\")", anthropic},
		{"npm token", "npm-access-token", "//registry.npmjs.org/:_authToken=" + npm, npm},
		{"private key block", "private-key", "key = \"\"\"\n" + key + "\n\"\"\"", body},
		{"password in a url", "url-password", "DATABASE_URL = \"postgres://app:" + urlPass + "@db.internal:5432/app\"", urlPass},
		{"unquoted yaml password", "assigned-secret", "database:\n  user: app\n  password: " + yamlPass + "\n", yamlPass},
		{"envrc export", "", "export API_KEY=" + envKey, envKey},
		{"environ default", "env-default", `SECRET_KEY = os.environ.get("SECRET_KEY", "` + envDefault + `")`, envDefault},
		{"process.env default", "env-default", `const secret = process.env.JWT_SECRET || "` + envDefault + `";`, envDefault},
		{"generic api key", "", `api_key = "` + generic + `"`, generic},
		{"quoted password", "assigned-secret", `conn = connect(host="db", password="hunter2` + pick(digits, 3) + `")`, ""},
	}
}

func TestPlantedSecretsAreHidden(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		for _, p := range PlantedSecrets(seed) {
			secret := p.Secret
			if secret == "" {
				// The value between the last quotes.
				q := strings.LastIndexByte(p.Text[:len(p.Text)-2], '"')
				secret = p.Text[q+1 : len(p.Text)-2]
			}
			out, n := redact.String(p.Text)
			if n == 0 || strings.Contains(out, secret) {
				t.Errorf("seed %d, %s: secret left in\n%s", seed, p.Name, out)
				continue
			}
			if p.Rule != "" && !strings.Contains(out, redact.Placeholder(p.Rule)) {
				t.Errorf("seed %d, %s: want the placeholder %s, got\n%s", seed, p.Name, redact.Placeholder(p.Rule), out)
			}
		}
	}
}

// A secret in a longer text, among code, is found too: the windows
// around keywords must not lose it.
func TestSecretsInsideLongText(t *testing.T) {
	var b strings.Builder
	ps := PlantedSecrets(11)
	for i, p := range ps {
		for j := 0; j < 30; j++ {
			b.WriteString("def handler_" + strings.Repeat("x", j%7) + "(request):\n    return render(request, 'page.html')\n")
		}
		b.WriteString(p.Text + "\n")
		if i%3 == 0 {
			b.WriteString("# the key to the token above is in the vault\n")
		}
	}
	out, _ := redact.String(b.String())
	for _, p := range ps {
		if p.Secret != "" && strings.Contains(out, p.Secret) {
			t.Errorf("%s: secret left in a long text", p.Name)
		}
	}
}

func TestCodeIsLeftAlone(t *testing.T) {
	lines := []string{
		`password = request.POST["password"]`,
		`token_type = "bearer"`,
		`password: str`,
		`    password: string;`,
		`def check_password(self, raw_password):`,
		`key = "name"`,
		`self.secret_key = settings.SECRET_KEY`,
		`API_KEY = os.environ["API_KEY"]`,
		`const token = getToken();`,
		`password = None`,
		`password = password_input`,
		`- name: password`,
		`secret: ${SECRET_FROM_VAULT}`,
		`PASSWORD_FIELD = "password"`,
		`password = models.CharField(max_length=128)`,
		`if token is None: raise ValueError("token is required")`,
		`url = "https://github.com/acme/app.git"`,
		`help="the password to log in with"`,
		`AUTH_TOKEN_HEADER = "X-Auth-Token"`,
		`key: value`,
		`user:pass@example is how URLs carry credentials`,
		`func (s *Store) Token(ctx context.Context) (string, error) {`,
		`token := strings.TrimPrefix(header, "Bearer ")`,
	}
	for _, l := range lines {
		if out, n := redact.String(l); n != 0 {
			t.Errorf("redacted code:\n  %s\n→ %s", l, out)
		}
	}
}

func TestValueWalksStructs(t *testing.T) {
	ps := PlantedSecrets(3)
	type inner struct {
		Lines []string
		Notes map[string]string
	}
	type result struct {
		Task   string
		Inner  *inner
		Any    any
		hidden string
	}
	r := &result{
		Task:   ps[0].Text,
		Inner:  &inner{Lines: []string{ps[2].Text}, Notes: map[string]string{"a": ps[5].Text}},
		Any:    ps[6].Text,
		hidden: "kept",
	}
	if n := redact.Value(r); n != 4 {
		t.Fatalf("Value counted %d secrets, want 4", n)
	}
	all := r.Task + strings.Join(r.Inner.Lines, "") + r.Inner.Notes["a"] + r.Any.(string)
	for _, i := range []int{0, 2, 5, 6} {
		if strings.Contains(all, ps[i].Secret) {
			t.Errorf("%s left in", ps[i].Name)
		}
	}
	if r.hidden != "kept" {
		t.Error("an unexported field changed")
	}
}

func TestPlaceholderSaysWhat(t *testing.T) {
	if got := redact.Placeholder("aws-access-token"); got != "[redacted: aws-access-token]" {
		t.Fatal(got)
	}
}

func BenchmarkString(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 32<<10 {
		sb.WriteString("func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {\n\tkey := r.Header.Get(\"X-Api-Key\")\n\tif key == \"\" {\n\t\thttp.Error(w, \"missing key\", 401)\n\t}\n}\n")
	}
	text := sb.String()
	redact.String("warm")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		redact.String(text)
	}
}

func FuzzString(f *testing.F) {
	for _, p := range PlantedSecrets(1) {
		f.Add(p.Text)
	}
	f.Add("password: \xff\xfe")
	f.Fuzz(func(t *testing.T, s string) {
		out, n := redact.String(s)
		if n == 0 && out != s {
			t.Fatal("changed a text without a finding")
		}
		if n > 0 && !strings.Contains(out, "[redacted: ") {
			t.Fatal("counted a finding without a placeholder")
		}
	})
}
