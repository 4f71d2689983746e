// Package redacttest makes secrets for tests of hone's redaction: one of
// each format users have seen leak, and an example of each rule of the
// rule set, generated from its pattern. They are made at run time, so
// that no secret sits in the source.
package redacttest

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/hone-tools/hone/redact"
	"github.com/lucasjones/reggen"
)

// Planted is a secret of each format hone must hide, made at run time so
// that no secret sits in the source.
type Planted struct {
	Name, Rule string // Rule: the placeholder's rule id, "" for any
	Text       string // the line or lines that hold it
	Secret     string
}

// Formats makes one secret of each format the issue tracker and users
// have seen leak, seeded: cloud and code-host keys, tokens in remote URLs,
// private-key blocks, passwords in URLs, unquoted config values, exports,
// and defaults of environment lookups.
func Formats(seed uint64) []Planted {
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
		{"password in a url's query", "connection-password", "dsn = \"postgresql://db/app?user=app&password=" + urlPass + "&sslmode=require\"", urlPass},
		{"password in a libpq string", "connection-password", `conn = psycopg.connect("host=db user=app password=` + urlPass + ` dbname=app")`, urlPass},
		{"password in an ADO.NET string", "connection-password", `var cs = "Server=db;Database=app;User Id=app;Password=` + urlPass + `;";`, urlPass},
		{"password in a MySQL DSN", "connection-password", `db, err := sql.Open("mysql", "root:` + urlPass + `@tcp(db:3306)/app")`, urlPass},
		{"bearer token in code", "bearer-token", `req.Header.Set("Authorization", "Bearer ` + generic + `")`, generic},
		{"password in a url with no user", "url-password", "CACHE_URL = \"redis://:" + urlPass + "@cache.internal:6379/0\"", urlPass},
		{"unquoted yaml password", "assigned-secret", "database:\n  user: app\n  password: " + yamlPass + "\n", yamlPass},
		{"envrc export", "", "export API_KEY=" + envKey, envKey},
		{"environ default", "env-default", `SECRET_KEY = os.environ.get("SECRET_KEY", "` + envDefault + `")`, envDefault},
		{"process.env default", "env-default", `const secret = process.env.JWT_SECRET || "` + envDefault + `";`, envDefault},
		{"generic api key", "", `api_key = "` + generic + `"`, generic},
		{"quoted password", "assigned-secret", `conn = connect(host="db", password="hunter2` + pick(digits, 3) + `")`, ""},
	}
}

// RuleExamples makes an example of each rule of the redactor whose pattern
// generates one that the redactor itself recognizes as that rule's, in a
// line of the form "value = EXAMPLE". It returns the examples and the
// number of rules tried.
func RuleExamples(seed int64) ([]Planted, int) {
	var out []Planted
	rules := redact.Rules()
	for _, r := range rules {
		g, err := reggen.NewGenerator(r.Pattern)
		if err != nil {
			continue
		}
		g.SetSeed(seed)
		for try := 0; try < 8; try++ {
			ex := g.Generate(3)
			if strings.ContainsAny(ex, "\n\r") || len(ex) > 400 {
				continue
			}
			fs := redact.Default().Find(ex)
			if len(fs) != 1 || fs[0].Rule != r.ID && fs[0].Rule != "generic-api-key" {
				continue
			}
			out = append(out, Planted{Name: "rule " + r.ID, Rule: fs[0].Rule, Text: ex, Secret: ex[fs[0].Start:fs[0].End]})
			break
		}
	}
	return out, len(rules)
}

// Unquote turns a name redact.QuotePath quoted back into the name, for a
// test that reads hone's output.
func Unquote(p string) string {
	if len(p) >= 2 && p[0] == '"' {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}
