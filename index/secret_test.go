package index

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The tokens of secrets never reach the index: not as terms, not as
// bytes anywhere in its files.
func TestSecretsStayOutOfTheIndex(t *testing.T) {
	// Distinctive random-looking parts, lowercase as the index keeps them.
	const (
		aws    = "AKIAQX7ZK2MPL4RTW6YB"
		stripe = "sk_live_9fQz2LkX8vNw4TpR7mYc3BhD"
		yaml   = "zq8vplmwx2kr"
		token  = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVb"
	)
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"app/settings.py": "AWS_ACCESS_KEY_ID = \"" + aws + "\"\nSTRIPE = '" + stripe + "'\n\ndef load_settings():\n    return AWS_ACCESS_KEY_ID\n",
		"deploy/db.yaml":  "database:\n  password: " + yaml + "\n  host: db\n",
		"ci/push.sh":      "git push https://x-access-token:" + token + "@github.com/acme/app.git\n",
	})
	dir := t.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if d := ix.Doc("app/settings.py"); d == nil || d.TF("load") == ([NumFields]uint16{}) {
		t.Fatal("the code around the secrets is not indexed")
	}
	ix.Close()
	leaks := []string{"qx7zk2mpl4rtw6yb", "9fqz2lkx8vnw4tpr7myc3bhd", yaml, "zx9qw8er7ty6ui5op4as3df2gh1jk0lzxcvb"}
	err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lower := bytes.ToLower(b)
		for _, l := range leaks {
			if bytes.Contains(lower, []byte(l)) {
				t.Errorf("%s holds %q", filepath.Base(p), l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
