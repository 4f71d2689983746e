package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/testenv"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/redact/redacttest"
	"github.com/hone-tools/hone/retrieve"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// TestMain: the fixtures are folders of this project's repository; git
// stops looking for a repository at testdata/repos, so that they have no
// history, whatever commit of hone is checked out.
func TestMain(m *testing.M) {
	testenv.Main(m, filepath.Join("..", "testdata", "repos"))
}

func run(t *testing.T, repo, task string) *hone.Result {
	t.Helper()
	res, err := retrieve.Retrieve(context.Background(), repo, task, hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var fixture = filepath.Join("..", "testdata", "repos", "auth-expiry")

func TestBudgetRespected(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	for _, budget := range []int{40, 120, 300, 600, 1200, 2500, 5000, 20000} {
		p := Build(res, fixture, Options{Budget: budget})
		if n := CountTokens(p.Text); n > budget || n != p.Tokens {
			t.Errorf("budget %d: the pack holds %d tokens (reported %d)", budget, n, p.Tokens)
		}
		// Each included piece has its lines, and the pack holds them.
		if len(p.Ranges) < len(p.Included) {
			t.Fatalf("budget %d: %d ranges for %d included pieces", budget, len(p.Ranges), len(p.Included))
		}
		for _, r := range p.Ranges {
			data, err := os.ReadFile(filepath.Join(fixture, r.Path))
			if err != nil || r.Start < 1 || r.End < r.Start {
				t.Errorf("budget %d: range %+v: %v", budget, r, err)
				continue
			}
			lines := strings.Split(string(data), "\n")
			if want := strings.Join(lines[r.Start-1:r.End], "\n"); !strings.Contains(p.Text, want) {
				t.Errorf("budget %d: lines %d-%d of %s are not in the pack", budget, r.Start, r.End, r.Path)
			}
		}
		// Each line goes in once, and no unit is both in and out.
		seen := map[string]bool{}
		for _, r := range p.Ranges {
			for l := r.Start; l <= r.End; l++ {
				k := fmt.Sprintf("%s:%d", r.Path, l)
				if seen[k] {
					t.Errorf("budget %d: line %s is in the pack twice", budget, k)
				}
				seen[k] = true
			}
		}
		for _, name := range p.Omitted {
			if slices.Contains(p.Included, name) {
				t.Errorf("budget %d: %s listed as omitted and included", budget, name)
			}
		}
	}
	big := Build(res, fixture, Options{Budget: 20000})
	if len(big.Omitted) != 0 {
		t.Errorf("a large budget left out %v", big.Omitted)
	}
	for _, f := range res.Files {
		if !strings.Contains(big.Text, f.Path) {
			t.Errorf("the pack lacks %s", f.Path)
		}
	}
	small := Build(res, fixture, Options{Budget: 600})
	if len(small.Omitted) == 0 || !strings.Contains(small.Text, "Not included") {
		t.Errorf("a small budget should list what it left out: %v", small.Omitted)
	}
	// Every file's first pieces come before any file's later ones: with a
	// budget too small for everything, every file still shows.
	mid := Build(res, fixture, Options{Budget: 1500})
	if len(mid.Omitted) == 0 {
		t.Fatal("budget 1500 holds everything: the test needs a smaller one")
	}
	for _, f := range res.Files {
		if !strings.Contains(mid.Text, "### "+f.Path) {
			t.Errorf("budget 1500: no code of %s", f.Path)
		}
	}
}

func TestHeader(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	p := Build(res, fixture, Options{})
	for _, want := range []string{"Task: fix the auth token expiry bug", "stopped after the most cycles", "src/auth/auth.ts (target, 0.", "refreshSession", "Tests to run after a change:\n- src/auth/auth.test.ts"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("the pack lacks %q", want)
		}
	}
	// A context file is listed with its role as well.
	if p := Build(run(t, fixture, "token expiry"), fixture, Options{}); !strings.Contains(p.Text, "src/auth/auth.ts (context, 0.") {
		t.Errorf("the pack should list the context file with its role:\n%s", p.Text)
	}
	none := run(t, fixture, "quaternion spectrogram")
	if p := Build(none, fixture, Options{}); !strings.Contains(p.Text, "hone found no file for this task") {
		t.Errorf("an empty result should say so: %s", p.Text)
	}
}

// TestBudgetName holds that a pack asks for a larger budget by the
// caller's name for it: --budget on the command line, budget_tokens over
// MCP.
func TestBudgetName(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	for _, tt := range []struct{ name, want string }{
		{"", "The budget is too small for the header; raise --budget to "},
		{"budget_tokens", "The budget is too small for the header; raise budget_tokens to "},
	} {
		p := Build(res, fixture, Options{Budget: 40, BudgetName: tt.name})
		if !strings.Contains(p.Text, tt.want) {
			t.Errorf("BudgetName %q: the pack lacks %q:\n%s", tt.name, tt.want, p.Text)
		}
		if tt.name != "" && strings.Contains(p.Text, "--budget") {
			t.Errorf("BudgetName %q: the pack names --budget:\n%s", tt.name, p.Text)
		}
		if p.Tokens > 40 {
			t.Errorf("BudgetName %q: %d tokens, over the budget of 40", tt.name, p.Tokens)
		}
		// The budget it asks for holds the header.
		var need int
		if _, err := fmt.Sscanf(p.Text[strings.Index(p.Text, tt.want)+len(tt.want):], "%d.", &need); err != nil {
			t.Fatalf("BudgetName %q: no budget asked for: %v\n%s", tt.name, err, p.Text)
		}
		if q := Build(res, fixture, Options{Budget: need, BudgetName: tt.name}); strings.Contains(q.Text, "too small for the header") {
			t.Errorf("the budget the pack asked for, %d, is still too small for the header:\n%s", need, q.Text)
		}
	}
}

// A budget below 0, what a caller's window left, is a pack of nothing,
// not the default's.
func TestNegativeBudget(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	for _, b := range []int{-1, -5000} {
		p := Build(res, fixture, Options{Budget: b})
		if p.Tokens != 0 || p.Text != "" || len(p.Included) != 0 {
			t.Errorf("budget %d: %d tokens, %d included: %q", b, p.Tokens, len(p.Included), p.Text)
		}
	}
}

func TestBuildWeighted(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	opts := Options{Budget: 1200}
	// The shipped weights make Build's pack.
	p, err := BuildWeighted(res, fixture, opts, UnitWeights())
	if err != nil {
		t.Fatal(err)
	}
	if want := Build(res, fixture, opts); p.Text != want.Text {
		t.Errorf("BuildWeighted with UnitWeights() differs from Build:\n%s\n---\n%s", p.Text, want.Text)
	}
	for _, n := range []int{0, len(UnitFeatures()) - 1, len(UnitFeatures()) + 1} {
		if _, err := BuildWeighted(res, fixture, opts, make([]float64, n)); err == nil || !strings.Contains(err.Error(), "give one weight a feature") {
			t.Errorf("%d weights: error %v, want one that says to give one weight a feature", n, err)
		}
	}
	// The slices handed out are copies: changing one changes no pack.
	w, f := UnitWeights(), UnitFeatures()
	for i := range w {
		w[i], f[i] = -1, ""
	}
	if q := Build(res, fixture, opts); q.Text != p.Text {
		t.Error("changing UnitWeights' or UnitFeatures' slice changed Build's pack")
	}
}

func TestPastCommitsInThePack(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	res.PastCommits = []hone.PastCommit{
		{Hash: "fedcba9876543210", Subject: "Keep sessions for a week", Files: []string{"src/config.ts"}, Score: 1, Named: true},
		{Hash: "0123456789abcdef", Subject: "Refresh sessions before they expire", Files: []string{"src/session/session-manager.ts"}, Score: 1, Relevance: 0.64},
		{Hash: "aaaabbbbccccdddd", Subject: "Rename the token helpers", Files: []string{"a.ts", "b.ts", "c.ts", "d.ts", "e.ts"}, Score: 1, Relevance: 0.2},
	}
	p := Build(res, fixture, Options{})
	// A commit's files are named three at most, the rest counted.
	want := "Past commits like the task (what changed for tasks like it):\n" +
		"- fedcba9876 Keep sessions for a week (src/config.ts, named in the task)\n" +
		"- 0123456789 Refresh sessions before they expire (src/session/session-manager.ts, relevance 0.64)\n" +
		"- aaaabbbbcc Rename the token helpers (a.ts, b.ts, c.ts, 2 more, relevance 0.20)"
	if !strings.Contains(p.Text, want) {
		t.Errorf("the pack lacks %q:\n%s", want, p.Text)
	}
}

func TestSecrets(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "settings.py"), []byte(`API_KEY = "sk-abcdefghijklmnopqrstuvwx1234"
AWS = "AKIAABCDEFGHIJKLMNOP"
db_password = "hunter2hunter2"
token_url = os.environ["TOKEN"]
def load_settings():
    return {"token": TOKEN_FROM_ENV}
`), 0o644)
	os.WriteFile(filepath.Join(repo, ".env"), []byte("SETTINGS_TOKEN=verysecretvalue\n"), 0o644)
	res := &hone.Result{Task: "settings token", Threshold: 0.7, StopReason: hone.StopSufficient, Files: []hone.File{
		{Path: "settings.py", Relevance: 0.9, Reason: "test"},
		{Path: ".env", Relevance: 0.8, Reason: "test"},
	}}
	p := Build(res, repo, Options{})
	for _, leak := range []string{"sk-abcdefghij", "AKIAABCDEFGHIJKLMNOP", "hunter2hunter2", "verysecretvalue"} {
		if strings.Contains(p.Text, leak) {
			t.Errorf("the pack leaks %q", leak)
		}
	}
	if p.Redacted != 3 {
		t.Errorf("redacted %d strings, want 3", p.Redacted)
	}
	if !strings.Contains(p.Text, "load_settings") || !strings.Contains(p.Text, `os.environ["TOKEN"]`) {
		t.Errorf("redaction went too far:\n%s", p.Text)
	}
}

// A link to a secret file, a file under .git, a file gone since indexing,
// a name that forges lines, and contents with NUL and invalid bytes.
func TestHostileFiles(t *testing.T) {
	repo := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".env", "DB_PASSWORD=from-the-env-file-42\n")
	write("id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n")
	write(".git/config", "[remote \"origin\"]\n\turl = https://gitdir-secret@example.com/x.git\n")
	write("evil\nname.py", "def forged():\n    return 1\n")
	// Binary bytes past the head that tells binary files apart.
	write("bytes.py", strings.Repeat("# filler line\n", walk.HeadSize/14+10)+"x = 1\x00\xff\xfe\x1b[31m\ny = 2\n")
	for link, target := range map[string]string{"notes.txt": ".env", "key.txt": "id_rsa", "gitcfg.txt": ".git/config"} {
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Skip("no symbolic links here")
		}
	}
	res := &hone.Result{Task: "read notes", Threshold: 0.7, StopReason: hone.StopSufficient}
	for _, p := range []string{"notes.txt", "key.txt", "gitcfg.txt", ".git/config", "evil\nname.py", "bytes.py", "gone.py"} {
		res.Files = append(res.Files, hone.File{Path: p, Relevance: 0.9, Role: hone.RoleTarget, Reason: "test"})
	}
	p := Build(res, repo, Options{Budget: 20000})
	for _, leak := range []string{"from-the-env-file-42", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "gitdir-secret", "\x00", "\x1b", "\xff", "evil\nname"} {
		if strings.Contains(p.Text, leak) {
			t.Errorf("the pack holds %q:\n%s", leak, p.Text)
		}
	}
	if !strings.Contains(p.Text, `"evil\nname.py"`) {
		t.Errorf("the forged name is not quoted:\n%s", p.Text)
	}
	if !strings.Contains(p.Text, "Could not be read for this pack") || !strings.Contains(p.Text, "gone.py") {
		t.Errorf("the pack does not say gone.py could not be read:\n%s", p.Text)
	}
	if want := []string{"gitcfg.txt", ".git/config", "gone.py"}; len(p.Unreadable) != len(want) {
		t.Errorf("unreadable = %q, want %q", p.Unreadable, want)
	}
}

// A file named for a secret comes redacted in the result: the pack says
// it is withheld for its path, not that it could not be read, and reads
// no file of the placeholder's name.
func TestWithheldPath(t *testing.T) {
	repo := t.TempDir()
	name := "pay/" + redact.Placeholder("github-pat") + ".py"
	os.MkdirAll(filepath.Join(repo, "pay"), 0o755)
	if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(name)), []byte("def planted():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "pay", Threshold: 0.7, StopReason: hone.StopSufficient,
		Files: []hone.File{{Path: name, Relevance: 0.9, Role: hone.RoleTarget, Reason: "test"}}}
	p := Build(res, repo, Options{Budget: 4000})
	if len(p.Withheld) != 1 || len(p.Unreadable) != 0 || !strings.Contains(p.Text, "Withheld, their paths holding a secret") || strings.Contains(p.Text, "Could not be read") {
		t.Errorf("withheld %q, unreadable %q:\n%s", p.Withheld, p.Unreadable, p.Text)
	}
	if strings.Contains(p.Text, "planted") {
		t.Errorf("the pack read a file by a redacted name:\n%s", p.Text)
	}
}

// A definition larger than the whole budget comes with its middle left
// out, saying so; nothing else is ever cut.
func TestElided(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package big\n\n// Expire checks every token.\nfunc Expire(tokens []Token) {\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "\tcheck(tokens[%d], \"expiry of token number %d\")\n", i, i)
	}
	b.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "token expiry", Files: []hone.File{{Path: "big.go", Relevance: 0.9, Role: hone.RoleTarget,
		Spans: []hone.Span{{Start: 4, End: 404, Symbol: "Expire", Why: "match"}}}}}
	p := Build(res, dir, Options{Budget: 1500})
	if p.Tokens > 1500 {
		t.Fatalf("the pack holds %d tokens, over 1500", p.Tokens)
	}
	if !strings.Contains(p.Text, "func Expire(tokens []Token) {") || !strings.Contains(p.Text, "left out: over the budget") {
		t.Errorf("want Expire's head and a note that its middle is left out:\n%s", p.Text)
	}
	// A block cut to fit shows no context lines: its ranges are the
	// head, from Expire's doc comment, and the tail, to its last line.
	if len(p.Ranges) != 2 || p.Ranges[0].Start != 3 || p.Ranges[1].End != 404 || p.Ranges[0].End >= p.Ranges[1].Start {
		t.Fatalf("ranges %+v: want Expire's doc comment and head from line 3 and its tail to line 404", p.Ranges)
	}
	// What the pack left out of it is listed, by its lines.
	middle := fmt.Sprintf("big.go:%d-%d Expire (its middle, left out)", p.Ranges[0].End+1, p.Ranges[1].Start-1)
	if !slices.Contains(p.Omitted, middle) || !strings.Contains(p.Text, "- "+middle) {
		t.Errorf("the list of what did not fit lacks %q: %q", middle, p.Omitted)
	}
}

// The budget goes by relevance: a context file at 0.02 whose best
// definition is long gets its head and tail, not the room the target's
// definitions need.
func TestBudgetByRelevance(t *testing.T) {
	dir := t.TempDir()
	def := func(b *strings.Builder, name string, lines int) {
		fmt.Fprintf(b, "def %s(token):\n", name)
		for i := 0; i < lines; i++ {
			fmt.Fprintf(b, "    token = check(token, %d)  # the expiry of %s\n", i, name)
		}
		b.WriteString("    return token\n\n")
	}
	var target, context strings.Builder
	for _, n := range []string{"expire_a", "expire_b", "expire_c", "expire_d"} {
		def(&target, n, 30)
	}
	def(&context, "verify_everything", 300)
	os.WriteFile(filepath.Join(dir, "target.py"), []byte(target.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "context.py"), []byte(context.String()), 0o644)
	res := &hone.Result{Task: "token expiry", Files: []hone.File{
		{Path: "target.py", Relevance: 0.9, Role: hone.RoleTarget},
		{Path: "context.py", Relevance: 0.02, Role: hone.RoleContext},
	}}
	p := Build(res, dir, Options{Budget: 4000})
	for _, n := range []string{"expire_a", "expire_b", "expire_c", "expire_d"} {
		if !strings.Contains(p.Text, "def "+n+"(") {
			t.Errorf("the pack lacks the target's %s:\n%s", n, p.Text)
		}
	}
	if !strings.Contains(p.Text, "def verify_everything(") || !strings.Contains(p.Text, "left out: over the budget") {
		t.Errorf("want the context file's head, its middle left out:\n%s", p.Text)
	}
}

// A changelog gives its head, where the change's entry goes, not the old
// release whose entry holds the task's words; and its list of what was
// left out names no old release.
func TestChangelogHead(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# Changelog\n\n## Unreleased\n\n- Fixed a crash when reading an empty config.\n\n")
	for v := 40; v > 0; v-- {
		fmt.Fprintf(&b, "## 1.%d.0\n\n- Improved logging of the parser.\n- Sped up the walker.\n\n", v)
		if v == 7 {
			b.WriteString("- Fixed the token expiry check, which accepted expired tokens.\n\n")
		}
	}
	os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "auth.py"), []byte("def check_expiry(token):\n    return token.expiry < now()\n"), 0o644)
	res := &hone.Result{Task: "token expiry", Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"expiri"}}, {Kind: "word", Weight: 1, Terms: []string{"token"}}},
		Files: []hone.File{{Path: "auth.py", Relevance: 0.9, Role: hone.RoleTarget}, {Path: "CHANGELOG.md", Relevance: 0.5, Role: hone.RoleTarget}}}
	p := Build(res, dir, Options{Budget: 600})
	if !strings.Contains(p.Text, "## Unreleased") || strings.Contains(p.Text, "accepted expired tokens") {
		t.Errorf("want the changelog's head, not the old entry:\n%s", p.Text)
	}
	for _, o := range p.Omitted {
		var from int
		if _, err := fmt.Sscanf(o, "CHANGELOG.md:%d", &from); err == nil && from > changelogHead {
			t.Errorf("an old release listed as left out: %s", o)
		}
	}
}

// Blank lines between two chosen definitions join them in one block; a
// blank line alone never goes in.
func TestBlankLinesBridge(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "def expire_%d(token):\n    return token.expiry + %d\n\n", i, i)
	}
	os.WriteFile(filepath.Join(dir, "tokens.py"), []byte(b.String()), 0o644)
	res := &hone.Result{Task: "token expiry", Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"expiri"}}},
		Files: []hone.File{{Path: "tokens.py", Relevance: 0.9, Role: hone.RoleTarget,
			Spans: []hone.Span{{Start: 4, End: 5, Symbol: "expire_1", Why: "match"}, {Start: 7, End: 8, Symbol: "expire_2", Why: "match"}}}}}
	p := Build(res, dir, Options{Budget: 400})
	if !strings.Contains(p.Text, "    return token.expiry + 1\n\ndef expire_2(token):") {
		t.Errorf("want expire_1 and expire_2 in one block, the blank line between them:\n%s", p.Text)
	}
	in := map[int]bool{}
	for _, r := range p.Ranges {
		for l := r.Start; l <= r.End; l++ {
			in[l] = true
		}
	}
	for _, r := range p.Ranges {
		if r.Start == r.End && r.Start%3 == 0 && (!in[r.Start-1] || !in[r.Start+1]) {
			t.Errorf("blank line %d went in without both its neighbours", r.Start)
		}
	}
}

// The units' tokens are estimated with a margin; the pack, counted, is
// filled again with what that margin left: more of the file goes in, the
// best units first, and the budget still holds.
func TestRefill(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "def expire_%d(token):\n    \"\"\"Check the expiry of token %d.\"\"\"\n    return token.expiry + %d\n\n", i, i, i)
	}
	os.WriteFile(filepath.Join(dir, "tokens.py"), []byte(b.String()), 0o644)
	res := &hone.Result{Task: "token expiry", Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"expiri"}}},
		Files: []hone.File{{Path: "tokens.py", Relevance: 0.9, Role: hone.RoleTarget}}}
	defer func(n int) { refills = n }(refills)
	for _, budget := range []int{1000, 4000, 8000} {
		refills = 0
		once := Build(res, dir, Options{Budget: budget})
		refills = 4
		filled := Build(res, dir, Options{Budget: budget})
		if filled.Tokens > budget || CountTokens(filled.Text) != filled.Tokens {
			t.Errorf("budget %d: the filled pack holds %d tokens (reported %d)", budget, CountTokens(filled.Text), filled.Tokens)
		}
		for _, s := range once.Included {
			if !slices.Contains(filled.Included, s) {
				t.Errorf("budget %d: %s went in once but not when filled again", budget, s)
			}
		}
		// What is left is little: the room kept for the list of what
		// did not fit, and less than one more unit.
		code := filled.Text
		if i := strings.Index(code, "\n## Not included"); i >= 0 {
			code = code[:i]
		}
		if left := budget - CountTokens(code); left > min(budget/8, 300)+2*minUnitTokens+100 {
			t.Errorf("budget %d: the code leaves %d tokens unused", budget, left)
		}
	}
}

// The header gives a file's reason cut short and three of its missing
// context, counting the rest; the result keeps them whole.
func TestHeaderShort(t *testing.T) {
	long := strings.Repeat("defines expire_token (\"expiry\"); ", 20)
	res := &hone.Result{Task: "token expiry", Files: []hone.File{{Path: "a.py", Relevance: 0.9, Role: hone.RoleTarget,
		Reason: long, MissingContext: []string{"m1() in b.py", "m2() in c.py", "m3() in d.py", "m4() in e.py", "m5() in f.py"}}}}
	h := header(res, nil, 0)
	line := ""
	for _, l := range strings.Split(h, "\n") {
		if strings.HasPrefix(l, "- a.py") {
			line = l
		}
	}
	if line == "" || len(line) > terse[0].reason+40 || !strings.HasSuffix(line, " …") {
		t.Errorf("the reason's line is %d bytes, want it cut near %d with …: %q", len(line), terse[0].reason, line)
	}
	if !strings.Contains(h, "  missing: m1() in b.py; m2() in c.py; m3() in d.py; 2 more\n") {
		t.Errorf("want three of the missing context and the rest counted:\n%s", h)
	}
	if res.Files[0].Reason != long || len(res.Files[0].MissingContext) != 5 || res.Files[0].MissingContext[3] != "m4() in e.py" {
		t.Errorf("the result's reason or missing context changed")
	}
}

// The header keeps within a tenth of the budget while a terser level can
// keep it there, saying less and counting the rest; a large budget gets it
// whole.
func TestHeaderWithinShare(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	res.Task = "fix the auth token expiry bug\n\n" + strings.Repeat("The refresh token is kept after it expires, and the session manager keeps using it. ", 8)
	for i := range res.Files {
		res.Files[i].Reason = strings.Repeat("defines expire_token and the refresh of the session; ", 6)
		res.Files[i].MissingContext = []string{"m1() in b.ts", "m2() in c.ts", "m3() in d.ts", "m4() in e.ts"}
	}
	res.RelatedTests = nil
	res.PastCommits = nil
	for i := range 5 {
		res.RelatedTests = append(res.RelatedTests, hone.RelatedTest{Path: fmt.Sprintf("test/t%d.test.ts", i), Reason: "imports src/auth/tokens.ts"})
		res.PastCommits = append(res.PastCommits, hone.PastCommit{Hash: fmt.Sprintf("c%d00000000000000", i), Subject: "Refresh sessions before they expire",
			Files: []string{"a.ts", "b.ts", "c.ts", "d.ts", "e.ts"}, Score: 1, Relevance: 0.3})
	}
	// Each level says less, and counts what it leaves out.
	for level, tc := range []struct{ want, not []string }{
		{[]string{"- c400000000 Refresh", "test/t4.test.ts", "m3() in d.ts; 1 more", "(a.ts, b.ts, c.ts, 2 more"}, nil},
		{[]string{"- c200000000 Refresh", "- 2 more\n", "test/t2.test.ts", "m2() in c.ts; 2 more", "(a.ts, b.ts, 3 more"}, []string{"test/t3.test.ts", "c300000000"}},
		{[]string{"- c100000000 Refresh", "- 3 more\n", "test/t1.test.ts", "m1() in b.ts; 3 more", "(a.ts, 4 more"}, []string{"test/t2.test.ts", "c200000000", "m2()"}},
	} {
		h := header(res, nil, level)
		for _, w := range tc.want {
			if !strings.Contains(h, w) {
				t.Errorf("level %d: the header lacks %q:\n%s", level, w, h)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(h, w) {
				t.Errorf("level %d: the header holds %q:\n%s", level, w, h)
			}
		}
		if level > 0 && CountTokens(h) >= CountTokens(header(res, nil, level-1)) {
			t.Errorf("level %d is no shorter than the level before", level)
		}
	}
	// The pack takes the first level within the share, or the last.
	for _, budget := range []int{2000, 4000, 8000, 16000} {
		p := Build(res, fixture, Options{Budget: budget})
		want := len(terse) - 1
		for level := range terse {
			if float64(CountTokens(header(res, nil, level))) <= headerShare*float64(budget) {
				want = level
				break
			}
		}
		if !strings.HasPrefix(p.Text, strings.TrimSuffix(header(res, nil, want), "\n")) {
			t.Errorf("at %d: want the header of level %d:\n%s", budget, want, p.Text)
		}
		if budget == 16000 && want != 0 {
			t.Errorf("at %d: the header is not whole", budget)
		}
		if p.Tokens > budget {
			t.Errorf("at %d: %d tokens", budget, p.Tokens)
		}
	}
}

// The ranking's next ten files, down to relevance 0.01, fill what the
// result's files leave: each worth its own relevance, so that a file at
// 0.02 comes after one at 0.2, and the eleventh file stays out.
func TestRankingNextFiles(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) {
		var b strings.Builder
		for i := 0; i < 30; i++ {
			fmt.Fprintf(&b, "def %s_%d(token):\n    return token.expiry + %d\n\n", name, i, i)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".py"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := &hone.Result{Task: "token expiry", Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"expiri"}}},
		Files: []hone.File{{Path: "target.py", Relevance: 0.9, Role: hone.RoleTarget}}}
	file("target")
	res.Ranking = append(res.Ranking, hone.Ranked{Path: "target.py", Relevance: 0.9})
	for i, rel := range []float64{0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.03, 0.02, 0.02, 0.005} {
		name := fmt.Sprintf("next%02d", i)
		file(name)
		res.Ranking = append(res.Ranking, hone.Ranked{Path: name + ".py", Relevance: rel})
	}
	has := func(p *Pack, name string) bool { return strings.Contains(p.Text, "def "+name+"_") }
	big := Build(res, dir, Options{Budget: 30000})
	for i := 0; i < 10; i++ {
		if name := fmt.Sprintf("next%02d", i); !has(big, name) {
			t.Errorf("the ranking's file %s is not in a pack with room", name)
		}
	}
	for _, name := range []string{"next10", "next11"} {
		if has(big, name) {
			t.Errorf("%s, past the ranking's next ten files, is in the pack", name)
		}
	}
	small := Build(res, dir, Options{Budget: 1500})
	if !has(small, "target") || has(small, "next09") {
		t.Errorf("a pack of 1,500 tokens: want the target's code, and none of a file at 0.02:\n%s", small.Text)
	}
}

// A long unit worth more than the short ones that would fill its room
// goes in: the fill by worth per token alone takes the short ones first,
// and then has no room for it, and leaves most of the budget unused.
func TestLongUnitWorthMore(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("def rotate_token(token):\n    token = refresh(token.expiry)\n    return rotate(token.refresh, token.expiry)\n\n")
	b.WriteString("def refresh_expiry(x):\n    token = x.token\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "    x = renew(x, %d)\n", i)
	}
	b.WriteString("    return x\n\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "def helper_%d(x):\n    return x.token.expiry\n\n", i)
	}
	os.WriteFile(filepath.Join(dir, "tokens.py"), []byte(b.String()), 0o644)
	res := &hone.Result{Task: "`rotate_token()` loses the refresh expiry", Concepts: []hone.Concept{
		{Kind: "identifier", Weight: 1, Terms: []string{"rotate_token", "rotat", "token"}},
		{Kind: "word", Weight: 1, Terms: []string{"refresh"}},
		{Kind: "word", Weight: 1, Terms: []string{"expiri"}},
	}, Files: []hone.File{{Path: "tokens.py", Relevance: 0.9, Role: hone.RoleTarget}}}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	byName := map[string]*unit{}
	for _, u := range fileUnits(0, "tokens.py", structure.LanguageOfLines("tokens.py", lines), lines, nil, 0.9, taskConcepts(res), unitWeights) {
		byName[u.symbol] = u
	}
	best, long, helper := byName["rotate_token"], byName["refresh_expiry"], byName["helper_0"]
	if best == nil || long == nil || helper == nil {
		t.Fatalf("units: %v", keys(byName))
	}
	// The premise: rotate_token is the best unit; a helper is worth more
	// per line than refresh_expiry, the twenty of them about as much.
	perLine := func(u *unit) float64 { return u.worth / float64(u.to-u.from+1) }
	if !(best.worth > long.worth && perLine(helper) > perLine(long) && 20*helper.worth < 1.5*long.worth) {
		t.Fatalf("premise: rotate_token %.4f, refresh_expiry %.4f (%.5f a line), a helper %.4f (%.5f a line)",
			best.worth, long.worth, perLine(long), helper.worth, perLine(helper))
	}
	p := Build(res, dir, Options{Budget: 1500})
	if !strings.Contains(p.Text, "def refresh_expiry(") || p.Tokens < 1000 {
		t.Errorf("the pack (%d tokens of 1500) leaves out refresh_expiry, worth more than the helpers that crowd it out:\n%s", p.Tokens, p.Text)
	}
}

// TestOverBudgetDropsLeastWorth: when the pack, counted, holds more than
// its budget (a file's rate sampled from its head, a license in prose,
// undercounts its code), what goes out is what is worth least per token,
// not the last block: the best unit, at the end of its file, stays.
func TestOverBudgetDropsLeastWorth(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("/*\n")
	for i := 0; i < 40; i++ {
		b.WriteString(" * Permission to use, copy, modify, and distribute this software for any\n")
	}
	b.WriteString(" */\n\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "static int\nhelper_%d(struct ctx *c)\n{\n\treturn c->colour + %d;\n}\n\n", i, i)
	}
	b.WriteString("static void\ndispatch_sgr_colon(struct ctx *c, u_int i)\n{\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "\tc->colour[%d] = sgr_colon_part(c, i, %d);\n", i, i)
	}
	b.WriteString("}\n")
	os.WriteFile(filepath.Join(dir, "input.c"), []byte(b.String()), 0o644)
	res := &hone.Result{Task: "SGR colon colour", Concepts: []hone.Concept{
		{Kind: "word", Weight: 1, Terms: []string{"sgr"}},
		{Kind: "word", Weight: 1, Terms: []string{"colon"}},
		{Kind: "word", Weight: 0.5, Terms: []string{"colour"}},
	}, Files: []hone.File{{Path: "input.c", Relevance: 0.9, Role: hone.RoleTarget}}}
	// Prose costs a token a word; code a token a byte, far above the
	// rate its head gives.
	count := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, " *") || strings.HasPrefix(l, "/*") {
				n += len(strings.Fields(l))
			} else {
				n += len(l)
			}
		}
		return n
	}
	for _, budget := range []int{2000, 3000} {
		p := Build(res, dir, Options{Budget: budget, Count: count})
		if count(p.Text) > budget {
			t.Errorf("budget %d: the pack holds %d", budget, count(p.Text))
		}
		if !strings.Contains(p.Text, "dispatch_sgr_colon(struct ctx") {
			t.Errorf("budget %d: the pack (%d) leaves out dispatch_sgr_colon, the best unit; included %v", budget, count(p.Text), p.Included)
		}
	}
}

// A task of many lines is quoted: its headings and code fences, one the
// cut leaves open among them, stay in the quote, and the pack's own
// sections and fences read as they should.
func TestTaskInAQuote(t *testing.T) {
	task := "### Bug\nIsExpired is true after login.\n\n```go\n" +
		strings.Repeat("fmt.Println(auth.IsExpired(issued)) // prints true, expected false\n", 20) +
		"```\n\n### Expected\nfalse\n"
	res := run(t, fixture, task)
	p := Build(res, fixture, Options{Budget: 4000})
	lines := strings.Split(p.Text, "\n")
	start := slices.Index(lines, "Task:")
	if start < 0 {
		t.Fatalf("no line \"Task:\" in\n%s", p.Text)
	}
	end := start + 1
	for end < len(lines) && !strings.HasPrefix(lines[end], "Files (") && !strings.HasPrefix(lines[end], "Note: ") {
		end++
	}
	if end == len(lines) {
		t.Fatalf("no list of files after the task in\n%s", p.Text)
	}
	for _, l := range lines[start+1 : end] {
		if l != "" && !strings.HasPrefix(l, ">") {
			t.Errorf("a line of the task is not quoted: %q", l)
		}
	}
	if !strings.Contains(p.Text, "> ### Bug\n") || !strings.Contains(p.Text, " …\n") {
		t.Errorf("the task is not quoted and cut:\n%s", strings.Join(lines[start:end], "\n"))
	}
	// Outside the quote, every fence opened is closed: the pack's code
	// blocks are code.
	fences := 0
	for _, l := range lines[end:] {
		if strings.HasPrefix(l, "```") {
			fences++
		}
	}
	if fences == 0 || fences%2 != 0 {
		t.Errorf("%d fences outside the task", fences)
	}
	// A task of one line stays on the line.
	one := Build(run(t, fixture, "fix the auth token expiry bug"), fixture, Options{Budget: 4000})
	if !strings.Contains(one.Text, "\nTask: fix the auth token expiry bug\n\n") {
		t.Errorf("a one-line task is not on its line:\n%s", one.Text[:min(len(one.Text), 300)])
	}
}

// A file whose text holds a markdown fence of its own (a docstring's)
// gets a longer fence, so that its code stays one block.
func TestFenceLongerThanTheCode(t *testing.T) {
	for _, tc := range []struct {
		body, want string
	}{
		{"x = 1", "```"},
		{"\"\"\"Example:\n```\nx\n```\n\"\"\"", "````"},
		{"    ````go\n", "`````"},
		{"s = '```'  # not at a line's start", "```"},
		{"# notes\r\rSee:\r```\rrm -rf x\r```\r", "````"}, // lone carriage returns end lines
		{"a\r\n```\r\n", "````"},
	} {
		if got := backticksFor(tc.body); got != tc.want {
			t.Errorf("backticksFor(%q) = %s, want %s", tc.body, got, tc.want)
		}
	}
	repo := t.TempDir()
	src := "def invoice_to_markdown(invoice):\n    \"\"\"Render the invoice total.\n\n```\n| item | total |\n```\n    \"\"\"\n    return f\"| {invoice.item} | {invoice.total} |\"\n"
	if err := os.WriteFile(filepath.Join(repo, "export.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := Build(run(t, repo, "the markdown export of an invoice shows the wrong total"), repo, Options{Budget: 2000})
	if !strings.Contains(p.Text, "````py\n") {
		t.Fatalf("no longer fence in the pack:\n%s", p.Text)
	}
	open := false
	for _, l := range strings.Split(p.Text, "\n") {
		switch {
		case strings.HasPrefix(l, "````") && !open:
			open = true
		case l == "````":
			open = false
		case !open && strings.HasPrefix(l, "| item"):
			t.Errorf("the docstring's table is outside the code block:\n%s", p.Text)
		}
	}
}

// A definition near the budget's size, which the estimate fits and the
// count does not, still leaves code in the pack: its head and tail.
func TestOneLargeDefinitionNearTheBudget(t *testing.T) {
	repo := t.TempDir()
	var b strings.Builder
	b.WriteString("import json\nimport os\n\n")
	for i := range 12 {
		fmt.Fprintf(&b, "def helper_%d(x):\n    \"\"\"%s\"\"\"\n    return x\n\n", i, strings.Repeat("Help text ", 30))
	}
	b.WriteString("def lookup_shipping_rate(country, weight):\n    \"\"\"Shipping rate for a parcel by country.\"\"\"\n")
	for i := range 40 {
		fmt.Fprintf(&b, "    # %s\n", strings.Repeat(fmt.Sprintf("rate table note %d ", i), 40))
	}
	b.WriteString("    rates = json.load(open(os.path.join('rates', country)))\n    return rates.get(country, 0) * weight\n")
	if err := os.WriteFile(filepath.Join(repo, "shipping.py"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, repo, "shipping rate lookup returns zero for some countries")
	for budget := 5000; budget <= 12000; budget += 250 {
		p := Build(res, repo, Options{Budget: budget})
		if n := CountTokens(p.Text); n > budget {
			t.Errorf("budget %d: %d tokens", budget, n)
		}
		if !strings.Contains(p.Text, "```py") {
			t.Errorf("budget %d: no code in the pack (%d tokens)", budget, p.Tokens)
		}
	}
}

// The list of what was left out names code to ask for, not blank lines.
func TestOmittedHoldsCode(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	for _, budget := range []int{200, 400, 800} {
		p := Build(res, fixture, Options{Budget: budget})
		for _, name := range p.Omitted {
			path, span, ok := strings.Cut(name, ":")
			if !ok {
				continue // a whole file
			}
			var from, to int
			if _, err := fmt.Sscanf(span, "%d-%d", &from, &to); err != nil {
				t.Fatalf("omitted %q: %v", name, err)
			}
			data, err := os.ReadFile(filepath.Join(fixture, path))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			if strings.TrimSpace(strings.Join(lines[from-1:to], "")) == "" {
				t.Errorf("budget %d: %q, blank lines, is listed as left out", budget, name)
			}
		}
	}
}

// The list of what did not fit never is a heading alone: it comes with an
// entry, or with how many there are, or not at all.
func TestOmittedHeadingNeverAlone(t *testing.T) {
	head := omittedHead("--budget")
	text := "# Context pack from hone\n"
	omitted := []string{"src/sessions/interface/secure_cookie_session_interface.py:284-385 SecureCookieSessionInterface", "b.py:1-2"}
	base := CountTokens(text) + CountTokens(head)
	more := CountTokens("- and 2 more\n")
	for _, tt := range []struct {
		budget  int
		heading bool
	}{
		{base, false},
		{base + more - 1, false},
		{base + more, true},
		{base + 200, true},
	} {
		p := &Pack{Budget: tt.budget, Omitted: omitted}
		got := p.withOmitted(text, CountTokens)
		if strings.Contains(got, "## Not included") != tt.heading {
			t.Errorf("budget %d: %q, want the heading: %v", tt.budget, got, tt.heading)
		}
		if tt.heading && !strings.Contains(got, "\n- ") {
			t.Errorf("budget %d: the heading with no line under it: %q", tt.budget, got)
		}
		if n := CountTokens(got); n > tt.budget {
			t.Errorf("budget %d: %d tokens", tt.budget, n)
		}
	}
	// A short first entry and many after it: the count of the rest comes
	// with the entry, or the count of all alone, within the budget.
	omitted = []string{"a"}
	for i := range 11 {
		omitted = append(omitted, fmt.Sprintf("src/some/long/path/number_%d/of/a/file.py:100-200 SomeClass.some_method_%d", i, i))
	}
	for budget := base; budget <= base+40; budget++ {
		p := &Pack{Budget: budget, Omitted: omitted}
		got := p.withOmitted(text, CountTokens)
		if n := CountTokens(got); n > budget {
			t.Errorf("budget %d: %d tokens:\n%s", budget, n, got)
		}
	}
}

// A secret over several lines (a private key) is hidden line by line: the
// lines after it keep their numbers, and a span the retrieval found there
// is packed at its own lines.
func TestSecretKeepsLineNumbers(t *testing.T) {
	var key redacttest.Planted
	for _, p := range redacttest.Formats(5) {
		if p.Rule == "private-key" {
			key = p
		}
	}
	var b strings.Builder
	b.WriteString("\"\"\"Deploy settings.\"\"\"\n" + key.Text + "\n\n")
	for i := range 90 {
		fmt.Fprintf(&b, "def helper%d(x):\n    return x + %d\n\n", i, i)
	}
	target := strings.Count(b.String(), "\n") + 1
	b.WriteString("def rotate_deploy_key(old):\n    return old.rotate()\n")
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "deploy.py"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "rotate the deploy key", Threshold: 0.7, StopReason: hone.StopSufficient, Files: []hone.File{{
		Path: "deploy.py", Relevance: 0.9, Role: hone.RoleTarget, Reason: "test",
		Spans: []hone.Span{{Start: target, End: target + 1, Symbol: "rotate_deploy_key", Why: "match"}},
	}}}
	p := Build(res, repo, Options{Budget: 400})
	// Its block begins two lines above it: the end of the helper before
	// it, and the blank line between, shown as context.
	want := fmt.Sprintf("rotate_deploy_key (lines %d-%d of %d)\n```py\n    return x + 89\n\ndef rotate_deploy_key(old):", target-2, target+1, target+1)
	if !strings.Contains(p.Text, want) {
		t.Errorf("the pack has no block %q:\n%s", want, p.Text)
	}
	for _, part := range strings.Split(key.Secret, "\n") {
		if strings.Contains(p.Text, part) {
			t.Errorf("the pack holds a line of the key:\n%s", p.Text)
		}
	}
}

// A unit of a few long lines larger than the budget (a minified bundle's
// one line) comes with its head and tail, its middle left out, saying so,
// as a longer definition does; the middle is listed as left out.
func TestLongLinesElided(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "function t%d(e){return e.token+%d}", i, i)
	}
	one := b.String()
	files := map[string]string{
		"dist/app.min.js": one + "\n",
		"three.js":        one[:40000] + "\n" + one[40000:80000] + "\n" + one[80000:120000] + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name[strings.LastIndex(name, "/")+1:]), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		path := name[strings.LastIndex(name, "/")+1:]
		for _, budget := range []int{300, 1000, 4000} {
			res := &hone.Result{Task: "token expiry", Threshold: 0.7, Files: []hone.File{{Path: path, Relevance: 0.9, Role: hone.RoleTarget}}}
			p := Build(res, dir, Options{Budget: budget})
			if p.Tokens > budget {
				t.Errorf("%s at %d: %d tokens", path, budget, p.Tokens)
			}
			if !strings.Contains(p.Text, "function t0(e)") || !strings.Contains(p.Text, "bytes of lines") || !strings.Contains(p.Text, "left out: over the budget") {
				t.Errorf("%s at %d: want its head and a note that its middle is left out:\n%.600s", path, budget, p.Text)
			}
			if !slices.ContainsFunc(p.Omitted, func(o string) bool { return strings.Contains(o, "(its middle, left out)") }) {
				t.Errorf("%s at %d: the middle is not listed as left out: %q", path, budget, p.Omitted)
			}
		}
	}
}

// A pack of no result is its header alone, within its budget.
func TestBuildNoResult(t *testing.T) {
	p := Build(nil, t.TempDir(), Options{Budget: 200})
	if p == nil || p.Tokens > 200 || len(p.Included) != 0 {
		t.Errorf("a pack of no result: %+v", p)
	}
}

// A small budget shows the best file's best unit, by its head and tail at
// least, before any other code: never a scrap of another definition in
// its place (a 300-token pack once held a blank line and another method's
// signature, the best unit listed as not included).
func TestSmallBudgetShowsTheBestUnit(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package big\n\n// Expire checks every token.\nfunc Expire(tokens []Token) {\n")
	for i := range 400 {
		fmt.Fprintf(&b, "\tcheck(tokens[%d], \"expiry of token number %d\")\n", i, i)
	}
	b.WriteString("}\n\nfunc invoke(token Token) { check(token, \"expiry\") }\n")
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "token expiry is checked too late", Files: []hone.File{{Path: "big.go", Relevance: 0.9, Role: hone.RoleTarget,
		Reason: strings.Repeat("defines Expire (\"expiry\", \"token\"); ", 6),
		Spans:  []hone.Span{{Start: 4, End: 404, Symbol: "Expire", Why: "match"}}}}}
	for budget := 120; budget <= 600; budget += 20 {
		p := Build(res, dir, Options{Budget: budget})
		if p.Tokens > budget {
			t.Errorf("budget %d: %d tokens", budget, p.Tokens)
		}
		if strings.Contains(p.Text, "```go") && !strings.Contains(p.Text, "func Expire(tokens []Token) {") {
			t.Errorf("budget %d: code, but not the best unit's head:\n%s", budget, p.Text)
		}
		if budget >= 200 && !strings.Contains(p.Text, "func Expire(tokens []Token) {") {
			t.Errorf("budget %d: the best unit's head is not shown:\n%s", budget, p.Text)
		}
	}
}

// The header is terser as the budget shrinks: past a few thousand tokens
// it lists the tests and past commits; below, the files alone; where even
// that would take a third of the budget, a line says the budget is too
// small for it, and the code has the room.
func TestHeaderTersest(t *testing.T) {
	res := run(t, fixture, "fix the auth token expiry bug")
	if len(res.RelatedTests) == 0 {
		t.Fatal("the fixture's result has no tests to run")
	}
	for _, tc := range []struct {
		budget      int
		tests, head bool
	}{
		{20000, true, true},
		{1000, false, true},
		{150, false, false},
	} {
		p := Build(res, fixture, Options{Budget: tc.budget})
		if got := strings.Contains(p.Text, "Tests to run"); got != tc.tests {
			t.Errorf("budget %d: tests listed %v, want %v:\n%s", tc.budget, got, tc.tests, p.Text)
		}
		if got := !strings.Contains(p.Text, "The budget is too small for the header"); got != tc.head {
			t.Errorf("budget %d: header %v, want %v:\n%s", tc.budget, got, tc.head, p.Text)
		}
		if !tc.head && !strings.Contains(p.Text, "```") {
			t.Errorf("budget %d: no header and no code:\n%s", tc.budget, p.Text)
		}
	}
}

// A short run of lines left out between two chosen units of a file goes
// in, shortest first, while the budget holds; a long one, one at a file's
// edge and one that crosses into another file stay out.
func TestFillGaps(t *testing.T) {
	// mk makes contiguous units of the given files and sizes in lines,
	// each of 20 tokens a line plus a block's, chosen as marked.
	type spec struct {
		file, lines int
		chosen      bool
	}
	mk := func(specs []spec) []*unit {
		var out []*unit
		line := map[int]int{}
		for _, s := range specs {
			from := line[s.file] + 1
			line[s.file] = from + s.lines - 1
			out = append(out, &unit{file: s.file, from: from, to: from + s.lines - 1, tokens: 20*s.lines + blockTokens, chosen: s.chosen, worth: 0.1})
		}
		return out
	}
	tests := []struct {
		name  string
		specs []spec
		room  int // tokens the budget leaves
		want  []bool
		used  int // the tokens fillGaps returns, of 1000 before
	}{
		{"short gap", []spec{{0, 5, true}, {0, 2, false}, {0, 5, true}}, 100, []bool{true, true, true}, 1000 + 40 - blockTokens},
		{"two units in the gap", []spec{{0, 5, true}, {0, 2, false}, {0, 3, false}, {0, 5, true}}, 100, []bool{true, true, true, true}, 1000 + 40 + 60 - blockTokens},
		{"a gap of gapLines", []spec{{0, 5, true}, {0, gapLines, false}, {0, 5, true}}, 20 * gapLines, []bool{true, true, true}, 1000 + 20*gapLines - blockTokens},
		{"long gap", []spec{{0, 5, true}, {0, gapLines + 1, false}, {0, 5, true}}, 1000, []bool{true, false, true}, 1000},
		{"at the file's end", []spec{{0, 5, true}, {0, 2, false}}, 100, []bool{true, false}, 1000},
		{"at the file's head", []spec{{0, 2, false}, {0, 5, true}}, 100, []bool{false, true}, 1000},
		{"across files", []spec{{0, 5, true}, {0, 2, false}, {1, 2, false}, {1, 5, true}}, 100, []bool{true, false, false, true}, 1000},
		{"no room", []spec{{0, 5, true}, {0, 5, false}, {0, 5, true}}, 10, []bool{true, false, true}, 1000},
		// A gap of a line costs less than the block it joins saves.
		{"joining saves", []spec{{0, 5, true}, {0, 1, false}, {0, 5, true}}, 0, []bool{true, true, true}, 1000 + 20 - blockTokens},
		{"shortest first", []spec{{0, 5, true}, {0, 4, false}, {0, 5, true}, {0, 1, false}, {0, 5, true}}, 0, []bool{true, false, true, true, true}, 1000 + 20 - blockTokens},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			units := mk(tt.specs)
			used := fillGaps(units, 1000, 1000+tt.room)
			var got []bool
			for _, u := range units {
				got = append(got, u.chosen)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("chosen %v, want %v", got, tt.want)
			}
			if used != tt.used {
				t.Errorf("used %d, want %d", used, tt.used)
			}
			if used > 1000+tt.room {
				t.Errorf("used %d of %d", used, 1000+tt.room)
			}
		})
	}
}

// Leaving a unit out frees its lines, and its block's title and fences
// only where it has a block of its own: a short unit between two chosen
// neighbours frees less than nothing.
func TestFreedBy(t *testing.T) {
	u := func(file, from, to int, chosen bool) *unit {
		return &unit{file: file, from: from, to: to, tokens: 10*(to-from+1) + blockTokens, chosen: chosen}
	}
	tests := []struct {
		name  string
		units []*unit
		k     int
		want  int
	}{
		{"alone", []*unit{u(0, 1, 5, false), u(0, 6, 8, true), u(0, 9, 12, false)}, 1, 30 + blockTokens},
		{"one neighbour", []*unit{u(0, 1, 5, true), u(0, 6, 8, true), u(0, 9, 12, false)}, 1, 30},
		{"between two", []*unit{u(0, 1, 5, true), u(0, 6, 6, true), u(0, 7, 12, true)}, 1, 10 - blockTokens},
		{"a neighbour in another file", []*unit{u(0, 1, 5, true), u(1, 1, 3, true)}, 1, 30 + blockTokens},
		{"a neighbour not adjacent", []*unit{u(0, 1, 5, true), u(0, 9, 11, true)}, 1, 30 + blockTokens},
	}
	for _, tt := range tests {
		if got := freedBy(tt.units, tt.k); got != tt.want {
			t.Errorf("%s: freedBy = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// Two chosen definitions with a short one between them come in one block,
// the short one with them (fillGaps), where the budget leaves room.
func TestShortGapJoinsBlocks(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "def filler_%d(token):\n    \"\"\"A token helper %d.\"\"\"\n    return token.id * %d\n\n", i, i, i)
	}
	b.WriteString("def expire_token(token):\n    return token.expiry < now()\n")
	b.WriteString("def neg(x):\n    return -x\n")
	b.WriteString("def renew_token(token):\n    token.expiry = now() + ttl\n")
	for i := 30; i < 60; i++ {
		fmt.Fprintf(&b, "def filler_%d(token):\n    \"\"\"A token helper %d.\"\"\"\n    return token.id * %d\n\n", i, i, i)
	}
	os.WriteFile(filepath.Join(dir, "tokens.py"), []byte(b.String()), 0o644)
	lines := strings.Split(b.String(), "\n")
	at := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i + 1
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	e, r := at("def expire_token"), at("def renew_token")
	res := &hone.Result{Task: "token expiry", Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"expiri", "token"}}},
		Files: []hone.File{{Path: "tokens.py", Relevance: 0.9, Role: hone.RoleTarget,
			Spans: []hone.Span{{Start: e, End: e + 1, Symbol: "expire_token", Why: "match"}, {Start: r, End: r + 1, Symbol: "renew_token", Why: "match"}}}}}
	p := Build(res, dir, Options{Budget: 600})
	if !strings.Contains(p.Text, "token.expiry < now()\ndef neg(x):\n    return -x\ndef renew_token(token):") {
		t.Errorf("want expire_token, neg and renew_token in one block:\n%s", p.Text)
	}
}

// The context around a block: the blank lines next to it and the line of
// code past them, two lines at most, never another block's lines nor
// blank lines alone.
func TestBlockContext(t *testing.T) {
	long := strings.Split("x = ["+strings.Repeat("1, ", 100)+"]\nshort = 1\n"+"y = ["+strings.Repeat("2, ", 100)+"]", "\n")
	if got := leadContext(long, 2, 0); got != 2 {
		t.Errorf("leadContext under a line of %d bytes = %d, want 2", len(long[0]), got)
	}
	if got := tailContext(long, 2, nil); got != 2 {
		t.Errorf("tailContext over a line of %d bytes = %d, want 2", len(long[2]), got)
	}
	lines := strings.Split("def a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n\n\n\ndef d():\n    return 4", "\n")
	chosen := func(from, to int) []*unit { return []*unit{{from: from, to: to}} }
	tests := []struct {
		name            string
		from, to, shown int
		next            []*unit
		lead, tail      int
	}{
		{"both sides", 4, 5, 0, nil, 2, 7},
		{"the file's first lines", 1, 2, 0, nil, 1, 4},
		{"the file's last lines, blank lines alone above", 12, 13, 0, nil, 12, 13},
		{"another block's lines above", 4, 5, 2, nil, 4, 7},
		{"a chosen unit below", 1, 2, 0, chosen(4, 5), 1, 2},
		{"blank lines alone below", 7, 8, 0, nil, 5, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := leadContext(lines, tt.from, tt.shown); got != tt.lead {
				t.Errorf("leadContext(%d, shown %d) = %d, want %d", tt.from, tt.shown, got, tt.lead)
			}
			if got := tailContext(lines, tt.to, tt.next); got != tt.tail {
				t.Errorf("tailContext(%d) = %d, want %d", tt.to, got, tt.tail)
			}
		})
	}
}

// Context lines go through layout into the block's text, its title and
// the pack's ranges, each line once; a block they stretch to the file's
// edges is no whole file, and its title names its definition.
func TestLayoutContext(t *testing.T) {
	var lines []string
	lines = append(lines, "VERSION = 1", "")
	lines = append(lines, "def expire_token(t):")
	for i := range 90 {
		lines = append(lines, fmt.Sprintf("    t.check(%d)", i))
	}
	lines = append(lines, "", "MAX = 3")
	n := len(lines)
	files := []hone.File{{Path: "a.py"}}
	units := []*unit{
		{file: 0, from: 1, to: 1, symbol: "VERSION"},
		{file: 0, from: 2, to: 2},
		{file: 0, from: 3, to: n - 2, symbol: "expire_token", chosen: true, worth: 1},
		{file: 0, from: n - 1, to: n},
	}
	blocks := layout(files, [][]string{lines}, langsOf(files, [][]string{lines}), units)
	if len(blocks) != 1 {
		t.Fatalf("%d blocks, want 1", len(blocks))
	}
	b := blocks[0]
	if b.lead != [2]int{1, 2} || b.tail != [2]int{n - 1, n} {
		t.Errorf("lead %v, tail %v: want [1 2] and [%d %d]", b.lead, b.tail, n-1, n)
	}
	if want := fmt.Sprintf("### a.py: expire_token (lines 1-%d of %d)\n```py\nVERSION = 1\n\ndef expire_token(t):", n, n); !strings.HasPrefix(b.text, want) {
		t.Errorf("block %q..., want it to begin %q", b.text[:80], want)
	}
	if !strings.HasSuffix(b.text, "    t.check(89)\n\nMAX = 3\n```\n") {
		t.Errorf("block ends %q, want the blank line and MAX after the definition", b.text[len(b.text)-40:])
	}
	var p Pack
	p.assemble("", files, [][]string{lines}, blocks)
	want := []Range{{"a.py", 1, 2}, {"a.py", 3, n - 2}, {"a.py", n - 1, n}}
	if !slices.Equal(p.Ranges, want) || !slices.Equal(p.Included, []string{fmt.Sprintf("a.py:3-%d expire_token", n-2)}) {
		t.Errorf("ranges %v, included %q: want %v and the definition alone", p.Ranges, p.Included, want)
	}
	// Two chosen units with a short run between: the first's tail stops
	// at the second, and the second's lead takes nothing the first shows.
	units[2].to = 10
	units = append(units[:3], &unit{file: 0, from: 11, to: 11}, &unit{file: 0, from: 12, to: n - 2, symbol: "rest", chosen: true, worth: 1}, units[3])
	lines[10] = ""
	blocks = layout(files, [][]string{lines}, langsOf(files, [][]string{lines}), units)
	p.assemble("", files, [][]string{lines}, blocks)
	seen := map[int]bool{}
	for _, r := range p.Ranges {
		for l := r.Start; l <= r.End; l++ {
			if seen[l] {
				t.Errorf("line %d shown twice: %v", l, p.Ranges)
			}
			seen[l] = true
		}
	}
}

// TestContextSkipsImports: a block's context lines are never lines of
// the file's imports left out, which come whole or not at all (a review
// saw a Go block begin with the ) that closes import ( and a C++ block end
// with the first of its file's includes).
func TestContextSkipsImports(t *testing.T) {
	lines := strings.Split("package a\n\nimport (\n\t\"fmt\"\n)\n\nconst x = 1\n\nfunc F() {}", "\n")
	files := []hone.File{{Path: "a.go"}}
	for _, tt := range []struct {
		name     string
		units    []*unit
		text     string // the block's first code lines
		lead, tl [2]int
	}{
		{"below the imports", []*unit{
			{file: 0, from: 1, to: 5, why: "imports"},
			{file: 0, from: 7, to: 7, symbol: "x", chosen: true, worth: 1},
		}, "```go\nconst x = 1\n\nfunc F() {}\n```", [2]int{}, [2]int{8, 9}},
		{"above the imports", []*unit{
			{file: 0, from: 1, to: 1, symbol: "a", chosen: true, worth: 1},
			{file: 0, from: 3, to: 5, why: "imports"},
		}, "```go\npackage a\n```", [2]int{}, [2]int{}},
		{"the imports shown", []*unit{
			{file: 0, from: 3, to: 5, why: "imports", chosen: true, worth: 1},
			{file: 0, from: 7, to: 7, symbol: "x", chosen: true, worth: 1},
		}, "```go\npackage a\n\nimport (", [2]int{1, 2}, [2]int{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			blocks := layout(files, [][]string{lines}, langsOf(files, [][]string{lines}), tt.units)
			if len(blocks) == 0 {
				t.Fatal("no block")
			}
			b := blocks[0]
			if b.lead != tt.lead || b.tail != tt.tl || !strings.Contains(b.text, tt.text) {
				t.Errorf("lead %v, tail %v, text:\n%s\nwant lead %v, tail %v, and %q", b.lead, b.tail, b.text, tt.lead, tt.tl, tt.text)
			}
		})
	}
}

// A definition of a few long lines, cut by its bytes to fit a small
// budget, keeps its signature in its head, after a doc comment longer
// than the head the budget leaves.
func TestByteCutKeepsTheSignature(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package big\n\n")
	b.WriteString("// Expire checks every token of the batch against the clock, one by one,\n")
	b.WriteString("// in the order the batch holds them, and marks those whose expiry has passed,\n")
	b.WriteString("// so that the caller can drop them before the next request goes out.\n")
	b.WriteString("func Expire(tokens []Token) {\n")
	for i := range 4 {
		fmt.Fprintf(&b, "\tcheck(tokens, %q)\n", strings.Repeat(fmt.Sprintf("expiry %d ", i), 150))
	}
	b.WriteString("}\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\nfunc helper%d() {}\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "token expiry is checked too late", Files: []hone.File{{Path: "big.go", Relevance: 0.9, Role: hone.RoleTarget,
		Spans: []hone.Span{{Start: 6, End: 11, Symbol: "Expire", Why: "match"}}}},
		Concepts: []hone.Concept{{Label: "token", Kind: "word", Weight: 1, Terms: []string{"token"}}, {Label: "expiry", Kind: "word", Weight: 0.8, Terms: []string{"expiri"}}}}
	shown, dropped := 0, 0
	for budget := 150; budget <= 500; budget += 25 {
		p := Build(res, dir, Options{Budget: budget})
		if !strings.Contains(p.Text, "bytes of lines") {
			continue // not cut by its bytes at this budget
		}
		shown++
		if !strings.Contains(p.Text, "func Expire(tokens []Token) {") {
			t.Errorf("budget %d: Expire cut by its bytes without its signature:\n%s", budget, p.Text)
		}
		// A preamble left out to make room for the signature is listed
		// as left out, ready to ask for.
		if !strings.Contains(p.Text, "// Expire checks every token") {
			dropped++
			if !slices.Contains(p.Omitted, "big.go:3-5 Expire (its preamble, left out)") {
				t.Errorf("budget %d: Expire's preamble left out but not listed; omitted: %q", budget, p.Omitted)
			}
		}
	}
	if shown == 0 {
		t.Fatal("no budget cut Expire by its bytes: the test tests nothing")
	}
	if dropped == 0 {
		t.Fatal("no budget left Expire's preamble out: the test's second half tests nothing")
	}
}

// TestFenceLanguage: a block's fence names its language, C++ by any of
// its extensions (a review saw .hpp and .dart blocks fenced bare), and a
// .h file by its text: C's, or C++'s.
func TestFenceLanguage(t *testing.T) {
	for _, tt := range []struct{ path, text, want string }{
		{"include/doc/detail/output/writer.hpp", "", "cpp"},
		{"src/a.cc", "", "cpp"},
		{"lib/state.dart", "", "dart"},
		{"app/Main.KT", "", "kt"},
		{"x/types.pyi", "", "py"},
		{"ci.yml", "", "yaml"},
		{"main.go", "", "go"},
		{"LICENSE", "", ""},
		{"data.bin", "", ""},
		{"src/list.h", "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint list_len(const struct list *l);\n", "c"},
		{"include/txt/chars.h", "#include <string>\n\ntemplate <typename Char> auto to_n(Char c) -> int;\n", "cpp"},
	} {
		lines := strings.Split(tt.text, "\n")
		if got := fence(tt.path, structure.LanguageOfLines(tt.path, lines)); got != tt.want {
			t.Errorf("fence(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestDocstringLeftOut: the parts of a definition cut from its long
// docstring come in one block with its signature, and the block says
// which of the docstring's lines it leaves out.
func TestDocstringLeftOut(t *testing.T) {
	lines := []string{"def pad():", "    return 0", "", "@cache", "def load(path):", `    """Load the file at path.`}
	for i := 7; i <= 34; i++ {
		lines = append(lines, fmt.Sprintf("    param_%d: what it sets.", i))
	}
	lines = append(lines, `    """`, "    x = 1", "    return x", "", "MAX = 3")
	files := []hone.File{{Path: "a.py"}}
	part := func(u *unit) *unit {
		u.head, u.doc = [2]int{4, 5}, [2]int{6, 35}
		return u
	}
	units := func(chosen ...int) []*unit {
		us := []*unit{
			{from: 1, to: 2, symbol: "pad"},
			{from: 3, to: 3},
			part(&unit{from: 4, to: 5, symbol: "load"}),
			part(&unit{from: 6, to: 25, within: "load", why: "lines"}),
			part(&unit{from: 26, to: 35, within: "load", why: "lines"}),
			part(&unit{from: 36, to: 37, symbol: "load"}),
			{from: 38, to: 38},
			{from: 39, to: 39, symbol: "MAX"},
		}
		for _, k := range chosen {
			us[k].chosen, us[k].worth = true, 1
		}
		return us
	}
	sig, body := "@cache\ndef load(path):\n", "    x = 1\n    return x\n\nMAX = 3\n```\n"
	tests := []struct {
		name   string
		chosen []int
		text   []string // the blocks' texts
		ranges []Range  // the lines shown
	}{
		{"the body alone brings its signature", []int{5},
			[]string{"### a.py: load (lines 2-39 of 39)\n```py\n    return 0\n\n" + sig + docstringLeft(6, 35) + "\n" + body},
			[]Range{{"a.py", 2, 3}, {"a.py", 4, 5}, {"a.py", 36, 37}, {"a.py", 38, 39}}},
		{"the signature and the body, named once", []int{2, 5},
			[]string{"### a.py: load (lines 2-39 of 39)\n```py\n    return 0\n\n" + sig + docstringLeft(6, 35) + "\n" + body},
			[]Range{{"a.py", 2, 3}, {"a.py", 4, 5}, {"a.py", 36, 37}, {"a.py", 38, 39}}},
		{"the docstring's first run in, the rest left out", []int{2, 3, 5},
			[]string{"### a.py: load (lines 2-39 of 39)\n```py\n    return 0\n\n" + strings.Join(lines[3:25], "\n") + "\n" + docstringLeft(26, 35) + "\n" + body},
			[]Range{{"a.py", 2, 3}, {"a.py", 4, 5}, {"a.py", 6, 25}, {"a.py", 36, 37}, {"a.py", 38, 39}}},
		{"the docstring's second run in, with the signature and the body", []int{2, 4, 5},
			[]string{"### a.py: load (lines 2-39 of 39)\n```py\n    return 0\n\n" + sig + docstringLeft(6, 25) + "\n" + strings.Join(lines[25:], "\n") + "\n```\n"},
			[]Range{{"a.py", 2, 3}, {"a.py", 4, 5}, {"a.py", 26, 35}, {"a.py", 36, 37}, {"a.py", 38, 39}}},
		{"a run alone brings the signature", []int{4},
			[]string{"### a.py: load (lines 2-36 of 39)\n```py\n    return 0\n\n" + sig + docstringLeft(6, 25) + "\n" + strings.Join(lines[25:36], "\n") + "\n```\n"},
			[]Range{{"a.py", 2, 3}, {"a.py", 4, 5}, {"a.py", 26, 35}, {"a.py", 36, 36}}},
		{"the docstring whole: nothing left out", []int{2, 3, 4, 5},
			[]string{"### a.py: load (lines 2-39 of 39)\n```py\n" + strings.Join(lines[1:], "\n") + "\n```\n"},
			[]Range{{"a.py", 2, 3}, {"a.py", 4, 5}, {"a.py", 6, 25}, {"a.py", 26, 35}, {"a.py", 36, 37}, {"a.py", 38, 39}}},
		{"the block above stops its context at the signature", []int{0, 5},
			[]string{"### a.py: pad (lines 1-2 of 39)\n```py\ndef pad():\n    return 0\n```\n",
				"### a.py: load (lines 4-39 of 39)\n```py\n" + sig + docstringLeft(6, 35) + "\n" + body},
			[]Range{{"a.py", 1, 2}, {"a.py", 4, 5}, {"a.py", 36, 37}, {"a.py", 38, 39}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			us := units(tt.chosen...)
			blocks := layout(files, [][]string{lines}, langsOf(files, [][]string{lines}), us)
			// The signature, shown above a part or chosen, is not left
			// out.
			shown := us[2].chosen
			for _, b := range blocks {
				shown = shown || b.head == us[2].head
			}
			if left := slices.Contains(leftOut(us, blocks, [][]string{lines}), us[2]); left == shown {
				t.Errorf("the signature shown: %v, left out: %v", shown, left)
			}
			var texts []string
			for _, b := range blocks {
				texts = append(texts, b.text)
			}
			if !slices.Equal(texts, tt.text) {
				t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(texts, ""), strings.Join(tt.text, ""))
			}
			var p Pack
			p.assemble("", files, [][]string{lines}, blocks)
			if !slices.Equal(p.Ranges, tt.ranges) {
				t.Errorf("ranges %v, want %v", p.Ranges, tt.ranges)
			}
		})
	}
}

// TestDocstringLeftOutBuild: a pack too small for a function's long
// docstring holds its signature and its body, within the budget, and
// lists the docstring's runs as left out.
func TestDocstringLeftOutBuild(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("import os\n\n\ndef convert(expr, modules=None):\n    \"\"\"Convert an expression into a function.\n\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "    Parameter %d tells how the modules and the printers work together, in detail.\n", i)
	}
	b.WriteString("    \"\"\"\n    printer = choose_printer(modules)\n    return printer.doprint(expr)\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "\n\ndef helper_%d(x):\n    return x + %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "conv.py"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "convert picks the wrong printer when modules is None", Files: []hone.File{{Path: "conv.py", Relevance: 0.9, Role: hone.RoleTarget,
		Spans: []hone.Span{{Start: 4, End: 70, Symbol: "convert", Why: "match"}}}}}
	p := Build(res, dir, Options{Budget: 700})
	if p.Tokens > 700 {
		t.Fatalf("the pack holds %d tokens, over 700", p.Tokens)
	}
	want := "def convert(expr, modules=None):\n" + docstringLeft(5, 67) + "\n    printer = choose_printer(modules)\n    return printer.doprint(expr)\n"
	if !strings.Contains(p.Text, want) {
		t.Errorf("want the signature, a note that the docstring is left out, and the body:\n%s", p.Text)
	}
	if !slices.ContainsFunc(p.Omitted, func(s string) bool {
		return strings.HasPrefix(s, "conv.py:5-") && strings.HasSuffix(s, " part of convert")
	}) {
		t.Errorf("the docstring's first run is not listed as left out: %q", p.Omitted)
	}
	// The signature, shown, is not listed as left out.
	if slices.Contains(p.Omitted, "conv.py:4-4 convert") {
		t.Errorf("the signature shown is listed as left out: %q", p.Omitted)
	}
}

// TestDocstringCutSignatureElided: a signature too long for the room,
// cut by its bytes without its preamble, is shown once: its block gets no
// second copy of it as a head.
func TestDocstringCutSignatureElided(t *testing.T) {
	var b strings.Builder
	b.WriteString("import os\n\n")
	for i := range 3 {
		fmt.Fprintf(&b, "# token expiry note %d, %s\n", i, strings.Repeat("about the way the token expires ", 8))
	}
	b.WriteString("def token_expiry(\n" + strings.Repeat("    a,\n", 30) + "):\n    \"\"\"Check the token.\n")
	for i := range 30 {
		fmt.Fprintf(&b, "    param %d: the value\n", i)
	}
	b.WriteString("    \"\"\"\n    return a\n" + strings.Repeat("\ndef pad():\n    return 0\n", 30))
	lines, us := unitsOf("a.py", b.String())
	k := slices.IndexFunc(us, func(u *unit) bool { return u.doc[1] > 0 && u.from == u.head[0] })
	if k < 0 {
		t.Fatal("no signature part")
	}
	v := elide(us[k], "python", lines, 230, CountTokens)
	if v == nil || v.dropped == 0 {
		t.Fatalf("want a copy cut without its preamble, got %+v", v)
	}
	v.chosen, v.worth = true, 1
	us[k] = v
	files := []hone.File{{Path: "a.py"}}
	blocks := layout(files, [][]string{lines}, langsOf(files, [][]string{lines}), us)
	var p Pack
	p.assemble("", files, [][]string{lines}, blocks)
	seen := map[int]bool{}
	for _, r := range p.Ranges {
		for l := r.Start; l <= r.End; l++ {
			if seen[l] {
				t.Fatalf("line %d shown twice: ranges %v", l, p.Ranges)
			}
			seen[l] = true
		}
	}
	if len(blocks) != 1 || blocks[0].head[1] != 0 {
		t.Errorf("%d blocks, the first's head %v: want one block, no head", len(blocks), blocks[0].head)
	}
}

// The list of what did not fit is never cut short in silence: it ends
// with its last entry, or with a line that counts those it leaves out,
// at every budget from the smallest with room for the header on; and a
// pack that left code out has the list.
func TestOmittedListSaysWhereItStops(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package tok\n\n")
	for i := range 120 {
		fmt.Fprintf(&b, "// expireToken%d drops token %d once its expiry has passed.\nfunc expireToken%d(t Token) bool {\n\treturn t.expiry < %d\n}\n\n", i, i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "tok.go"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "token expiry is checked too late", Files: []hone.File{{Path: "tok.go", Relevance: 0.9, Role: hone.RoleTarget, Reason: "test"}},
		Concepts: []hone.Concept{{Label: "token", Kind: "word", Weight: 1, Terms: []string{"token"}}, {Label: "expiry", Kind: "word", Weight: 0.8, Terms: []string{"expiri"}}}}
	for budget := 400; budget <= 4000; budget += 150 {
		p := Build(res, dir, Options{Budget: budget})
		if p.Tokens > budget {
			t.Fatalf("budget %d: %d tokens", budget, p.Tokens)
		}
		if len(p.Omitted) == 0 {
			continue
		}
		_, list, ok := strings.Cut(p.Text, "## Not included")
		if !ok {
			t.Errorf("budget %d: %d units left out, and no list of them:\n%s", budget, len(p.Omitted), p.Text)
			continue
		}
		lines := strings.Split(strings.TrimRight(list, "\n"), "\n")
		last := lines[len(lines)-1]
		listed := len(lines) - 1
		if listed < len(p.Omitted) && last != fmt.Sprintf("- and %d more", len(p.Omitted)-listed+1) {
			t.Errorf("budget %d: the list stops at %q after %d of %d entries, and does not say how many more", budget, last, listed, len(p.Omitted))
		}
	}
}

// A definition with a long doc comment, cut to a room too small for it
// whole, shows its signature: the head holds the doc comment whole, or
// starts at the signature, and never stops inside the comment (a web
// framework's method had shown "s []string) error {" after half its
// comment). Its middle, where it is cut by bytes, is more than a few.
func TestElideKeepsTheSignature(t *testing.T) {
	var b strings.Builder
	b.WriteString("package web\n\n")
	for i := range 8 {
		fmt.Fprintf(&b, "// SetForwardedHosts note %d: %s\n", i, strings.Repeat("forwarded hosts and their CIDRs ", 3))
	}
	b.WriteString("func (engine *Engine) SetForwardedHosts(forwardedHosts []string) error {\n\tengine.forwardedHosts = forwardedHosts\n\treturn engine.parseForwardedHosts()\n}\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\nfunc after%d() int {\n\treturn %d\n}\n", i, i)
	}
	lines, us := unitsOf("web.go", b.String())
	k := slices.IndexFunc(us, func(u *unit) bool { return strings.HasPrefix(lines[u.to-1], "}") && u.to-u.from > 5 })
	if k < 0 {
		t.Fatalf("no unit for SetForwardedHosts: %+v", us)
	}
	sig := "func (engine *Engine) SetForwardedHosts(forwardedHosts []string) error {"
	shown := 0
	for room := 40; room <= 400; room += 5 {
		v := elide(us[k], "go", lines, room, CountTokens)
		if v == nil {
			continue
		}
		text := strings.Join(lines[v.from-1:v.to], "\n")
		if v.trimmed() {
			text = elided(lines, v)
		}
		if !strings.Contains(text, sig) {
			if strings.Contains(text, "// SetForwardedHosts note 0") {
				t.Errorf("room %d: the head stops inside the doc comment, the signature hidden:\n%s", room, text)
			}
			continue
		}
		shown++
		if v.bytes[1] > 0 && v.bytes[1]-v.bytes[0] < minElidedBytes {
			t.Errorf("room %d: %d bytes left out of its middle, fewer than %d", room, v.bytes[1]-v.bytes[0], minElidedBytes)
		}
	}
	if shown == 0 {
		t.Error("the signature shown at no room")
	}
	// A signature longer than the fewest bytes a cut keeps, above a few
	// long lines: cut by its bytes, the head holds the whole signature.
	long := "func (engine *Engine) SetForwardedHostsWithCIDRsAndPlatformHeaders(forwardedHosts []string, forwardedPlatform string, remoteIPHeaders []string) error {"
	var lb strings.Builder
	lb.WriteString(long + "\n")
	for i := range 4 {
		fmt.Fprintf(&lb, "\tcheck(%q)\n", strings.Repeat(fmt.Sprintf("proxy %d ", i), 150))
	}
	lb.WriteString("}\n")
	llines := strings.Split(strings.TrimRight(lb.String(), "\n"), "\n")
	lu := &unit{from: 1, to: len(llines), symbol: "f", why: "definition"}
	cut := 0
	for room := 60; room <= 400; room += 10 {
		v := elide(lu, "go", llines, room, CountTokens)
		if v == nil || v.bytes[1] == 0 {
			continue
		}
		cut++
		if text := elided(llines, v); !strings.Contains(text, long) {
			t.Errorf("room %d: cut by its bytes, the signature not whole:\n%s", room, text)
		}
	}
	if cut == 0 {
		t.Error("no room cut the long-lined unit by its bytes")
	}
	// A template head over lines, and a doc comment a blank line above
	// its method: preambles withPreambles gives, which isPreamble alone
	// does not read.
	for _, tc := range []struct{ path, head, sig string }{
		{"wtext.h", "template <typename OutputIt, typename... T,\n          TXT_ENABLE_IF(detail::is_output_iterator<OutputIt, wchar_t>::value && !std::is_same<OutputIt, char>::value)>\n", "auto render_to_n(OutputIt out, size_t n, T&&... args) -> render_to_n_result<OutputIt> {"},
		{"response.js", "  /**\n   * Return the value, " + strings.Repeat("and more of it, ", 6) + "as it stands.\n   */\n\n", "  get value () {"},
	} {
		var b strings.Builder
		b.WriteString(tc.head + tc.sig + "\n")
		for i := range 40 {
			fmt.Fprintf(&b, "  step(%d);\n", i)
		}
		b.WriteString("}\n")
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		u := &unit{from: 1, to: len(lines), symbol: "f", why: "definition"}
		lang := structure.LanguageOfLines(tc.path, lines) // the .h file's text says C++
		for room := 40; room <= 300; room += 5 {
			v := elide(u, lang, lines, room, CountTokens)
			if v == nil {
				continue
			}
			text := strings.Join(lines[v.from-1:v.to], "\n")
			if v.trimmed() {
				text = elided(lines, v)
			}
			if !strings.Contains(text, strings.TrimSpace(tc.sig)) {
				t.Errorf("%s, room %d: the signature hidden:\n%s", tc.path, room, text)
			}
		}
	}
}

// A C++ template head over lines comes whole with its definition, in a
// .hpp file and in a .h file (C++'s by its text): no unit starts inside it.
func TestTemplateHeadWithItsDefinition(t *testing.T) {
	var b strings.Builder
	b.WriteString("#include <cstddef>\n\nnamespace txt {\n\n")
	for i := range 12 {
		fmt.Fprintf(&b, "template <typename OutputIt, typename... T,\n          TXT_ENABLE_IF(is_output_iterator<OutputIt, wchar_t>::value)>\nauto render_to_n%d(OutputIt out, size_t n, T&&... args)\n    -> render_to_n_result<OutputIt> {\n  return vrender_to_n(out, n, %d);\n}\n\n", i, i)
	}
	b.WriteString("}  // namespace txt\n")
	for _, path := range []string{"wtext.hpp", "wtext.h"} {
		lines, us := unitsOf(path, b.String())
		found := 0
		for _, u := range us {
			if !strings.Contains(strings.Join(lines[u.from-1:u.to], "\n"), "auto render_to_n") {
				continue
			}
			found++
			if first := strings.TrimSpace(lines[u.from-1]); !strings.HasPrefix(first, "template <") {
				t.Errorf("%s: the unit of lines %d-%d starts at %q, inside its template head", path, u.from, u.to, first)
			}
		}
		if found == 0 {
			t.Errorf("%s: no unit holds a render_to_n", path)
		}
	}
}

// A long run of decorators over lines, with no blank line among them
// (a CLI library's options above one command), goes in runs of whole decorators:
// no run starts inside one.
func TestDecoratorRunsWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("import clikit\n\n\n")
	for i := range 30 {
		fmt.Fprintf(&b, "@clikit.option(\n    \"--opt%d\",\n    \"-o%d\",\n    type=str,\n    help=\"Option %d.\",\n)\n", i, i, i)
	}
	b.WriteString("def main(**kwargs):\n    return kwargs\n")
	lines, us := unitsOf("cli.py", b.String())
	runs := 0
	for _, u := range us {
		first := strings.TrimSpace(lines[u.from-1])
		if u.why != "lines" || first == "" || strings.HasPrefix(first, "import") {
			continue
		}
		runs++
		if !strings.HasPrefix(first, "@") {
			t.Errorf("the run of lines %d-%d starts at %q, inside a decorator", u.from, u.to, first)
		}
	}
	if runs == 0 {
		t.Fatalf("no run of decorators: %d units", len(us))
	}
}

// A doc comment a blank line above its definition (a JavaScript style: /** …
// */, a blank line, then the method) comes with it: no unit starts right
// after the comment's */, and none ends with its /**.
func TestDocCommentABlankLineAbove(t *testing.T) {
	var b strings.Builder
	b.WriteString("'use strict'\n\nmodule.exports = {\n")
	for i := range 30 {
		fmt.Fprintf(&b, "\n  /**\n   * Return the value %d.\n   *\n   * @return {Number}\n   * @api public\n   */\n\n  get value%d () {\n    return this.res.value%d\n  },\n", i, i, i)
	}
	b.WriteString("}\n")
	lines, us := unitsOf("lib/response.js", b.String())
	methods := 0
	for _, u := range us {
		text := strings.Join(lines[u.from-1:u.to], "\n")
		if !strings.Contains(text, "get value") {
			continue
		}
		methods++
		if first := strings.TrimSpace(lines[u.from-1]); first != "/**" {
			t.Errorf("the unit of lines %d-%d starts at %q, not at its doc comment", u.from, u.to, first)
		}
	}
	if methods == 0 {
		t.Fatalf("no unit holds a method: %d units", len(us))
	}
}

// unitsOf is a file's lines and the units a pack makes of them, as a
// file of relevance 0.9 with no task's concepts.
func unitsOf(path, src string) ([]string, []*unit) {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	return lines, fileUnits(0, path, structure.LanguageOfLines(path, lines), lines, nil, 0.9, taskConcepts(&hone.Result{}), unitWeights)
}

func TestDocAbove(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"a doc comment, a blank line, the method", "x = {\n  /**\n   * Doc.\n   */\n\n  get v () {\n", true},
		{"no blank line", "x = {\n  /**\n   * Doc.\n   */\n  get v () {\n", false},
		{"a block comment, not a doc comment", "x = {\n  /*\n   * Note.\n   */\n\n  get v () {\n", false},
		{"code with a comment after it", "/** doc of a */\nint a = f(); /* note */\n\nint b(void) {\n", false},
		{"a file's header", "/** @license MIT */\n\nint b(void) {\n", false},
		{"at the file's start", "\nint b(void) {\n", false},
	} {
		lines := strings.Split(strings.TrimRight(tc.src, "\n"), "\n")
		if got := docAbove(lines, len(lines)); got != tc.want {
			t.Errorf("%s: docAbove = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{`defines Html ("html"); named for "tag" (for "tags"); 3 more of the task's words`, 40, `defines Html ("html") …`},
		{`defines Html ("html"); named for "tag" (for "tags"); 3 more of the task's words`, 62, `defines Html ("html"); named for "tag" (for "tags") …`},
		{`defines Html ("html"); named for "tag" (for "tags")`, 30, `defines Html ("html") …`},
		{"a long sentence without clauses goes on", 20, "a long sentence …"},
		{"令牌过期后接口没有返回401", 10, "令牌过 …"},
	} {
		if got := clip(tc.s, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// langsOf is each file's language, as Build reads it.
func langsOf(files []hone.File, texts [][]string) []string {
	langs := make([]string, len(files))
	for i, f := range files {
		langs[i] = structure.LanguageOfLines(f.Path, texts[i])
	}
	return langs
}

// A file's imports go in with some of its code, never alone: a file whose
// code does not fit shows no block of its imports.
func TestImportsNotAlone(t *testing.T) {
	repo := t.TempDir()
	var imports strings.Builder
	for i := range 12 {
		fmt.Fprintf(&imports, "import mod_%d\n", i)
	}
	var body strings.Builder
	for i := range 400 {
		fmt.Fprintf(&body, "    total_%d = compute_value(%d) + other_value(%d)\n", i, i, i)
	}
	os.WriteFile(filepath.Join(repo, "target.py"), []byte("def expire_token(token):\n    return token.expiry < now()\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "helper.py"), []byte(imports.String()+"\n\ndef huge():\n"+body.String()), 0o644)
	res := &hone.Result{Task: "token expiry", Threshold: 0.7, StopReason: hone.StopSufficient, Files: []hone.File{
		{Path: "target.py", Relevance: 0.9, Role: hone.RoleTarget, Reason: "test"},
		{Path: "helper.py", Relevance: 0.3, Role: hone.RoleTarget, Reason: "test"},
	}}
	for _, budget := range []int{600, 1000} {
		p := Build(res, repo, Options{Budget: budget})
		if strings.Contains(p.Text, "### helper.py: imports") {
			t.Errorf("budget %d: helper.py's imports alone:\n%s", budget, p.Text)
		}
	}
}
