package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
)

func TestCodeOfLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`x = expire(token)`, `x = expire(token)`},
		{`log.Errorf("token %s expired", id)`, `log.Errorf("                ", id)`},
		{`print('it\'s the token')  # expiry`, `print('               ')  `},
		{"msg := `token`", "msg := `     `"},
		{`refresh(session) // token expiry`, `refresh(session) `},
		{`"unclosed token`, `"              `},
	} {
		if got := codeOfLine(c.in); got != c.want {
			t.Errorf("codeOfLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCommonCall(t *testing.T) {
	for name, want := range map[string]bool{
		"str": true, "len": true, "values": true, "Errorf": true, "Write": true, "info": true,
		"refreshSession": false, "expire_token": false, "signJwt": false,
	} {
		if got := commonCall(name); got != want {
			t.Errorf("commonCall(%q) = %v, want %v", name, got, want)
		}
	}
}

// A relevant file's calls on the task's lines are gaps, unless the name
// is one every program calls, the task's words are only in the message
// the line logs, or two of the files it imports define the name.
func TestCallGaps(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"app/session.py": `from app.store import values, save_expiry
from app.logs import log_event
from app.a import purge
from app.b import purge

def expire_session(session):
    """Expire the session when its token expiry passes."""
    token = values(session.expiry)
    save_expiry(session.token)
    log_event("session token expired")
    purge(session.token)
    return str(session.token)
`,
		"app/store.py": `def values(x):
    return x

def save_expiry(token):
    return token
`,
		"app/logs.py": `def log_event(msg):
    print(msg)
`,
		"app/a.py": "def purge(x):\n    return x\n",
		"app/b.py": "def purge(x):\n    return x\n",
	})
	res, err := Retrieve(context.Background(), repo, "expire the session token expiry", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1})
	if err != nil {
		t.Fatal(err)
	}
	var gaps []string
	for _, c := range res.Cycles {
		for _, g := range c.Gaps {
			if g.Kind == "call" {
				gaps = append(gaps, g.Name)
			}
		}
	}
	if !slices.Contains(gaps, "save_expiry") {
		t.Errorf("call gaps %v, want save_expiry", gaps)
	}
	for _, not := range []string{"values", "str", "log_event", "purge"} {
		if slices.Contains(gaps, not) {
			t.Errorf("call gaps %v hold %s", gaps, not)
		}
	}
}
