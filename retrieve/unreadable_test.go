package retrieve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
)

// A target that can no longer be read is still a target, and the result
// says that it could not be read.
func TestUnreadableTargetIsNoticed(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"billing/invoice.py": "def render_invoice(invoice):\n    return invoice.total\n",
		"billing/tax.py":     "def invoice_tax(invoice):\n    return invoice.total * 0.2\n",
	})
	ix, err := buildIndex(dir, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	os.Remove(filepath.Join(dir, "billing", "invoice.py"))
	res, err := RetrieveIndex(context.Background(), ix, "render the invoice", hone.Options{NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Files {
		found = found || f.Path == "billing/invoice.py"
	}
	if !found {
		t.Fatalf("the indexed target is not in the result: %+v", res.Files)
	}
	if !strings.Contains(res.Notice, "billing/invoice.py could not be read") {
		t.Errorf("notice %q does not say the target could not be read", res.Notice)
	}
}
