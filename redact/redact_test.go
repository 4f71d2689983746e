package redact_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/redact/redacttest"
	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

func TestPlantedSecretsAreHidden(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		for _, p := range redacttest.Formats(seed) {
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
	ps := redacttest.Formats(11)
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
		`    reset_password_form = AccountPasswordResetForm`,
		`auth_token_class = HTTPBasicAuthTokenClass`,
		`password_hasher = makePasswordHasher`,
		`	credentialStoreConfig = *storeConfig`,
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
		`    request.withCredentials = !!_config.withCredentials;`,
		`credentials = &cfg.Credentials`,
		`conn = connect(host="db", password=pw)`,
		`conn = connect(host=host, user=user, password=settings.DB_PASSWORD)`,
		`req.Header.Set("Authorization", "Bearer "+token)`,
		`Authorization: Bearer <token>`,
		`const auth = "Bearer YOUR_ACCESS_TOKEN_HERE"`,
		`dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)`,
		`url = "https://db/app?user=app&password=${DB_PASSWORD}"`,
	}
	for _, l := range lines {
		if out, n := redact.String(l); n != 0 {
			t.Errorf("redacted code:\n  %s\n→ %s", l, out)
		}
	}
}

func TestValueWalksStructs(t *testing.T) {
	ps := redacttest.Formats(3)
	type inner struct {
		Lines []string
		Notes map[string]string
		ByKey map[string]int
	}
	type result struct {
		Task   string
		Inner  *inner
		Any    any
		hidden string
	}
	r := &result{
		Task:   ps[0].Text,
		Inner:  &inner{Lines: []string{ps[2].Text}, Notes: map[string]string{"a": ps[5].Text}, ByKey: map[string]int{"deploy/" + ps[0].Secret + "/a.go": 7, "b.go": 8}},
		Any:    ps[6].Text,
		hidden: "kept",
	}
	if n := redact.Value(r); n != 5 {
		t.Fatalf("Value counted %d secrets, want 5", n)
	}
	// A key is redacted, its value kept under the redacted key.
	for k, v := range r.Inner.ByKey {
		if strings.Contains(k, ps[0].Secret) || k != "b.go" && (v != 7 || !redact.HasPlaceholder(k)) {
			t.Errorf("key %q (value %d) after Value", k, v)
		}
	}
	if len(r.Inner.ByKey) != 2 || r.Inner.ByKey["b.go"] != 8 {
		t.Errorf("the keys after Value: %v", r.Inner.ByKey)
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
	for _, p := range redacttest.Formats(1) {
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

// An example of each rule of gitleaks' set, generated from its pattern,
// is hidden, and most rules yield one.
func TestRuleExamples(t *testing.T) {
	ex, rules := redacttest.RuleExamples(1)
	t.Logf("%d of %d rules gave an example", len(ex), rules)
	if len(ex) < rules/2 {
		t.Errorf("only %d of %d rules gave an example", len(ex), rules)
	}
	for _, p := range ex {
		if out, _ := redact.String(p.Text); strings.Contains(out, p.Secret) {
			t.Errorf("%s: left in: %s", p.Name, out)
		}
	}
}

// BenchmarkRepository redacts this repository's own files, as the index
// does when it masks secrets before tokenizing.
func BenchmarkRepository(b *testing.B) {
	texts := redact.RepositoryFiles()
	total := 0
	for _, x := range texts {
		total += len(x)
	}
	redact.Default()
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, t := range texts {
			redact.Mask("", t)
		}
	}
}

// BenchmarkNew builds the default redactor, as every hone process that
// prints does once.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := redact.New(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDecodeAsGitleaks: hone decodes gitleaks' default configuration
// itself, without viper; the rules must be those gitleaks' own loader
// reads.
func TestDecodeAsGitleaks(t *testing.T) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		t.Fatal(err)
	}
	var want, got config.ViperConfig
	if err := v.Unmarshal(&want); err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal([]byte(config.DefaultConfig), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rules) < 100 {
		t.Fatalf("%d rules decoded", len(got.Rules))
	}
	for i := range want.Rules {
		if i < len(got.Rules) && !reflect.DeepEqual(want.Rules[i], got.Rules[i]) {
			t.Errorf("rule %s: decoded %+v, gitleaks reads %+v", want.Rules[i].ID, got.Rules[i], want.Rules[i])
		}
	}
	if !reflect.DeepEqual(want, got) {
		t.Error("the configuration decodes otherwise than gitleaks reads it")
	}
}

// A name is quoted once: one already in the quoted form because it is not
// UTF-8 (as Value writes it) is written as it is.
func TestQuotePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"src/a.go", "src/a.go"},
		{"a\nb.go", `"a\nb.go"`},
		{"caf\xe9.py", `"caf\xe9.py"`},
		{`"caf\xe9.py"`, `"\"caf\\xe9.py\""`},  // a name that looks quoted is quoted: two names never print alike
		{`"a\nb.go"`, `"\"a\\nb.go\""`},        // a name with quotes and a backslash
		{`"quoted".go`, `"\"quoted\".go"`},     // starts with a quote
		{"\x1b[31mred.go", `"\x1b[31mred.go"`}, // a terminal escape
	} {
		if got := redact.QuotePath(tc.in); got != tc.want {
			t.Errorf("QuotePath(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	var v struct{ Path string }
	v.Path = "caf\xe9.py"
	redact.TextValue(&v)
	if got := redact.QuotePath(v.Path); got != `"caf\xe9.py"` {
		t.Errorf("a name not UTF-8, through TextValue and QuotePath: %s", got)
	}
	redact.Value(&v)
	if v.Path != `"caf\xe9.py"` {
		t.Errorf("a name not UTF-8, through Value for JSON: %s", v.Path)
	}
}

// On a long line, the rules read near their keywords alone: they find
// what they find reading the whole line, wherever on it a secret stands,
// a secret longer than the window around its keyword included.
func TestLongLineWindowsKeepFindings(t *testing.T) {
	r := redact.Default()
	rng := rand.New(rand.NewPCG(3, 9))
	const code = `function(e,t){var n=e.length,r=t.token?t.key:null;return n>0&&r!==void 0?e.map(function(i){return i.value}):[]};`
	filler := func() string {
		var b strings.Builder
		for b.Len() < rng.IntN(3**redact.LongLine) {
			b.WriteString(code)
		}
		return b.String()
	}
	var texts []string
	add := func(secret string) {
		if strings.Contains(secret, "\n") {
			return
		}
		texts = append(texts, filler()+secret+filler(), secret+filler(), filler()+secret)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		for _, p := range redacttest.Formats(seed) {
			add(p.Text)
		}
	}
	ex, _ := redacttest.RuleExamples(2)
	for _, p := range ex {
		add(p.Text)
	}
	long := strings.Repeat("Zk29dK/slqp+03kdlXq", 3**redact.NearKeyword/19)
	add(`api_key = "` + long + `";`)
	add(`var token=` + long + `;`)
	whole := func(text string) []redact.Finding {
		defer func(n int) { *redact.LongLine = n }(*redact.LongLine)
		*redact.LongLine = math.MaxInt
		return r.FindIn("app.min.js", text)
	}
	found := 0
	for _, text := range texts {
		got, want := r.FindIn("app.min.js", text), whole(text)
		found += len(want)
		if !slices.Equal(got, want) {
			t.Errorf("findings in a line of %d bytes:\nnear the keywords %v\nthe whole line %v", len(text), got, want)
		}
	}
	if found < len(texts)/2 {
		t.Errorf("%d findings in %d lines: the test plants too few secrets", found, len(texts))
	}
}

// FileLines hides what File hides and keeps the text's lines: a secret
// over several lines leaves its placeholder on each, so that what follows
// keeps its line number.
// TestUnaryBeforeAPassword: an operator before an attribute is code, one
// before a word may be a password's first character (a review's finding:
// password=!QAZ2wsx came through).
func TestUnaryBeforeAPassword(t *testing.T) {
	for path, line := range map[string]string{"deploy.sh": "password=!QAZ2wsx", "run.sh": "db_password=*Welcome1"} {
		if out, n := redact.File(path, line); n == 0 || strings.Contains(out, "QAZ2wsx") || strings.Contains(out, "Welcome1") {
			t.Errorf("%s: %q came through as %q", path, line, out)
		}
	}
}

// A password of words in camel case, or a pointer to one, is a password:
// it shares no word with its name but the secret's own, where a name in
// code assigned to a name shares what it names (TestCodeIsLeftAlone).
func TestPasswordsOfWords(t *testing.T) {
	lines := map[string]string{
		"db_password=CorrectHorseBatteryStaple": "CorrectHorseBatteryStaple",
		"smtp_pass=BlueSkyMorning":              "BlueSkyMorning",
		"password=&HappyDogWalk":                "HappyDogWalk",
		"password = SuperSecretPassword":        "SuperSecretPassword",
		"password=*WelcomeHome":                 "WelcomeHome",
	}
	for line, secret := range lines {
		for _, path := range []string{"deploy.sh", "Dockerfile", "Makefile", "notes.md", "settings.py", ""} {
			var out string
			if path == "" {
				out, _ = redact.String(line)
			} else {
				out, _ = redact.File(path, line)
			}
			if strings.Contains(out, secret) {
				t.Errorf("%s: %q came through as %q", cmp.Or(path, "no path"), line, out)
			}
		}
	}
}

// TestEnvSettings: an env line's setting about a secret is left alone,
// its secret hidden.
func TestEnvSettings(t *testing.T) {
	for _, c := range []struct {
		line, secret string // secret "": left alone
	}{
		{"export TOKEN_TTL=3600", ""},
		{"PASSWORD_MAX_AGE=86400", ""},
		{"export DB_PASSWORD_FILE=/run/secrets/db", ""},
		{"AUTH_TOKEN_MODE=strict", ""},
		{"export DB_PASSWORD=Hunter22", "Hunter22"},
		{"API_TOKEN=q8Zr2LmX9vTw", "q8Zr2LmX9vTw"},
		{"export SECRET_KEY=s3cr3tv4lue", "s3cr3tv4lue"},
		// A value that looks random under a setting's name is a secret
		// still (a name's last word alone let it through).
		{"export SMTP_PASSWORD_FILE=Hunter22abc", "Hunter22abc"},
	} {
		out, n := redact.File("deploy.sh", c.line)
		switch {
		case c.secret != "" && (n == 0 || strings.Contains(out, c.secret)):
			t.Errorf("%q: the secret is left in: %q", c.line, out)
		case c.secret == "" && n != 0:
			t.Errorf("%q: a setting redacted: %q", c.line, out)
		}
	}
}

// TestConfigFilePasswords: a configuration file's value is never code, so a
// password assigned to a key is hidden however plain it looks; the same
// line in source code assigns a name.
func TestConfigFilePasswords(t *testing.T) {
	for _, c := range []struct {
		path, line, secret string // secret "": the line is left alone
	}{
		{"conf/app.ini", "password = Hunter22", "Hunter22"},
		{"conf/application.properties", "spring.datasource.password=Summer2024", "Summer2024"},
		{"my.cnf", "password=Welcome1", "Welcome1"},
		{"conf/mail.conf", "smtp_password = MailPass99", "MailPass99"},
		{"setup.cfg", "db_pass: Autumn23", "Autumn23"},
		{"conf/app.INI", "Password = Hunter22 ; the old one", "Hunter22"},
		{"app.py", "password = Hunter22", ""},
		{"conf/app.ini", "password = ${DB_PASSWORD}", ""},
		{"conf/app.ini", "password_min_length = 8", ""},
		{"conf/security.properties", "auth.password.hasher=bcrypt", ""},
		{"conf/app.ini", "token_ttl = 3600", ""},
		{"conf/app.ini", "password =", ""},
		{"conf/app.ini", "api_key = users", ""},
		// A value runs to the line's end, save a comment after a space.
		{"conf/application.properties", "spring.datasource.password=Hunt#er22", "er22"},
		{"conf/application.properties", "spring.datasource.password=Sum,mer24", "mer24"},
		{"conf/app.ini", "password = Hunter 22", "Hunter"},
		{"conf/app.ini", "password = supersecret", "supersecret"},
		{"conf/app.ini", "password = secret", "= secret"},
		// Settings about a password, not passwords.
		{"my.cnf", "validate-password=FORCE_PLUS_PERMANENT", ""},
		{"conf/app.properties", "secret.provider=vault", ""},
		{"conf/app.ini", "password_auth = enabled", ""},
		{"conf/app.ini", "password_scheme = bcrypt", ""},
		{"conf/app.ini", "credentials = environment", ""},
		{"conf/app.ini", "db.password.file = Hunter22abc", "Hunter22abc"},
	} {
		out, n := redact.File(c.path, c.line)
		switch {
		case c.secret != "" && (n == 0 || strings.Contains(out, c.secret)):
			t.Errorf("%s: %q: the password is left in: %q", c.path, c.line, out)
		case c.secret == "" && n != 0:
			t.Errorf("%s: %q: redacted a setting: %q", c.path, c.line, out)
		}
	}
}

func TestFileLinesKeepsLines(t *testing.T) {
	for _, p := range redacttest.Formats(3) {
		text := "first line\n" + p.Text + "\nafter the secret\n"
		out, n := redact.FileLines("config.py", text)
		want, wn := redact.File("config.py", text)
		if n != wn {
			t.Errorf("%s: %d secrets, File found %d", p.Name, n, wn)
		}
		if strings.Count(out, "\n") != strings.Count(text, "\n") {
			t.Errorf("%s: %d lines, want %d:\n%s", p.Name, strings.Count(out, "\n"), strings.Count(text, "\n"), out)
		}
		lines := strings.Split(out, "\n")
		if lines[len(lines)-2] != "after the secret" {
			t.Errorf("%s: the line after the secret moved:\n%s", p.Name, out)
		}
		if p.Secret != "" {
			for _, part := range strings.Split(p.Secret, "\n") {
				if len(part) > 8 && strings.Contains(out, part) {
					t.Errorf("%s: a part of the secret left in:\n%s", p.Name, out)
				}
			}
		}
		// Joined into one line each, the two say the same.
		if strings.Count(want, "\n") == strings.Count(out, "\n") && want != out {
			t.Errorf("%s: FileLines %q, File %q", p.Name, out, want)
		}
	}
}

// A bare "pass" names a secret as a part of its own name (DB_PASS,
// smtp.pass), not inside a word (bypass); a kubeconfig's key data is one.
func TestPassAndKeyData(t *testing.T) {
	key := strings.Repeat("LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB", 4)
	for _, tt := range []struct {
		path, text, secret string
	}{
		{"production.conf", "DB_PASS=Zq8vT3kLmN2pR7sW\n", "Zq8vT3kLmN2pR7sW"},
		{"mail.conf", "smtp.pass = hunter2-horse99\n", "hunter2-horse99"},
		{"config.yaml", "pass: Tr0ub4dor-and-3\n", "Tr0ub4dor-and-3"},
		{".kube/config", "users:\n- name: admin\n  user:\n    client-key-data: " + key + "\n", key[:40]},
	} {
		out, n := redact.File(tt.path, tt.text)
		if n == 0 || strings.Contains(out, tt.secret) {
			t.Errorf("%s: %q left in:\n%s", tt.path, tt.secret, out)
		}
	}
	for _, code := range []string{"bypass = true\n", "compass_heading = north\n", "if ok { pass.Repo = be.Name() }\n", "PASS_COUNT = 3\n"} {
		if out, n := redact.File("a.py", code); n != 0 {
			t.Errorf("%q redacted: %q", code, out)
		}
	}
}

// TestVendorKeysJoined: an AWS key id joined to a word by "_", and an
// OpenAI project's key of a length gitleaks does not know, are hidden;
// the same shapes inside a word, or an AWS example id, are not.
func TestVendorKeysJoined(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	aws := "AKIA" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	aws2 := "ASIA" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	openai := "sk-proj-" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", 100)
	for _, tt := range []struct {
		text, secret string
		hidden       bool
	}{
		{"DEPLOY_KEY_" + aws + " in the log", aws, true},
		{"export AWS_" + aws, aws, true},
		{"key=" + aws, aws, true},
		{"clone: OPENAI_API_KEY=" + openai, openai, true},
		{"the key " + openai + " was revoked", openai, true},
		{"deploy/" + openai + "/x", openai, true},
		{"X" + aws + " is a word", aws, false},
		{"AWS_AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", false},
		{"risk-proj-" + openai[8:], "risk-proj-", false},
		{"sk-proj-shortname", "sk-proj-shortname", false},
		{"KEY_" + aws + "_" + aws2, aws2, true},
		{"primer = \"ACCAGTTGACCATGGACTGA\"", "ACCAGTTGACCATGGACTGA", false},
		{"aws_access_key_id = AKIAXXXXXXXXXXXXXXXX", "AKIAXXXXXXXXXXXXXXXX", false},
		{"name: sk-svcacct-billing-reconciliation-worker-pool", "sk-svcacct-billing", false},
		{"sk-admin-dashboard-deployment-configuration-v2", "sk-admin-dashboard", false},
	} {
		out, _ := redact.String(tt.text)
		if got := !strings.Contains(out, tt.secret); got != tt.hidden {
			t.Errorf("%q: hidden %v, want %v: %q", tt.text, got, tt.hidden, out)
		}
	}
}

func ExampleShort() {
	fmt.Println(redact.Short("the endpoint said:\n  token ghp_rPmvA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6 is not valid for this model", 60))
	// Output: the endpoint said: token [redacted: github-pat] is not valid…
}
