package retrieve

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/zoekt"
)

func TestMatchOne(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"src/**", "src/a/b.ts", true},
		{"src/**/*.ts", "src/a/b.ts", true},
		{"src/**/*.ts", "lib/a/b.ts", false},
		{"*.ts", "src/a/b.ts", true},
		{"*.ts", "src/a/b.go", false},
		{"src/auth", "src/auth/auth.ts", true},
		{"src/auth/", "src/auth/auth.ts", true},
		{"src/auth", "src/authority/x.ts", false},
		{"./src/auth/auth.ts", "src/auth/auth.ts", true},
		{"src/{auth,lib}/*.ts", "src/lib/jwt-utils.ts", true},
		{"", "a", false},
		// The repository's root is every file in it.
		{".", "src/a/b.ts", true},
		{"./", "README.md", true},
		// As in .gitignore: a name with no slash at any depth, a
		// directory's pattern everything under it, a leading slash the
		// root alone, a trailing one directories alone (a review found
		// --exclude migrations, **/migrations and migrations/ excluding
		// nothing of a web framework's).
		{"migrations", "shop/contrib/accounts/migrations/0011_update.py", true},
		{"migrations/", "shop/contrib/accounts/migrations/0011_update.py", true},
		{"**/migrations", "shop/contrib/accounts/migrations/0011_update.py", true},
		{"*/migrations", "shop/contrib/accounts/migrations/0011_update.py", false},
		{"*/migrations", "auth/migrations/0011_update.py", true},
		{"0011_update.py", "shop/contrib/accounts/migrations/0011_update.py", true},
		{"0011_update.py/", "shop/contrib/accounts/migrations/0011_update.py", false},
		{"/migrations", "shop/contrib/accounts/migrations/0011_update.py", false},
		{"/migrations", "migrations/0001.py", true},
		{"/README.md", "README.md", true},
		{"/README.md", "docs/README.md", false},
		{"README.md", "docs/README.md", true},
		{"migr*", "shop/migrations/x.py", true},
		{"migr*/", "shop/migrations", false},
		{"test_*.py", "tests/test_a.py", true},
		{"src/auth/*.ts", "src/auth/deep/x.ts", false},
		{"vendor/**", "vendor", false},
		// A leading ./ is the root, as a leading / is (the diff review's
		// finding: ./main.go matched every main.go).
		{"./main.go", "cmd/tool/main.go", false},
		{"./main.go", "main.go", true},
		{"./src", "vendor/lib/src/a.go", false},
		{"**/**", "main.go", false},
		{"**/**", "a/b.go", true},
		{`[\0]`, "0", true},
		{"src/*/x.go", "src/a/x.go", true},
		{"src/*/x.go", "src/a/b/x.go", false},
		{"src/*", "src/a/b/x.go", true},
	}
	for _, tt := range tests {
		if got := matchOne(tt.pat, tt.path); got != tt.want {
			t.Errorf("matchOne(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
		if got := compileGlobs([]string{tt.pat}).match(tt.path); got != tt.want {
			t.Errorf("compileGlobs(%q).match(%q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}

// Patterns compiled once match every path as matchAny does.
func FuzzCompiledGlobs(f *testing.F) {
	f.Add("src/**", "src/auth", "src/a/b.ts")
	f.Add("*.ts", "./lib/", "lib/x.go")
	f.Add("src/{auth,lib}/*.ts", "", "src/lib/jwt-utils.ts")
	f.Add("[", "a/**", "a")
	f.Fuzz(func(t *testing.T, a, b, p string) {
		pats := []string{a, b}
		if got, want := compileGlobs(pats).match(p), matchAny(pats, p); got != want {
			t.Errorf("patterns %q, path %q: compiled %v, matchAny %v", pats, p, got, want)
		}
	})
}

// The root package checks globs with the standard library alone; the
// search matches them with doublestar. The two agree on which are well
// formed.
func FuzzGlobCheck(f *testing.F) {
	for _, p := range []string{"src/**", "*.ts", "src/{auth,lib}/*.ts", "[", "[]", "[!]", "a[b", "a]b", "{", "}", "{a,{b}}", `a\`, `a\*`, `[\]]`, "[^a]", "src/[a-z]*.go"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		err := hone.Options{MaxCycles: 1, Threshold: 0.5, Candidates: 1, MaxFiles: 1, Include: []string{p}}.Check()
		if ok := doublestar.ValidatePattern(p); (err == nil) != ok {
			t.Errorf("%q: the options' check says %v, doublestar %v", p, err, ok)
		}
	})
}

// odd are the runs of stars doublestar reads its own way, which no person
// writes: three in a row, two inside a name, a star against a brace.
var odd = regexp.MustCompile(`\*\*\*|[^/]\*\*|\*\*[^/]|\*[{}]|[{}]\*`)

// The zoekt backend's prefilter (zoekt.GlobRegexp) reads a pattern as
// matchAny does: a path one matches, the other does too, so that the
// cluster's answer holds every file the globs keep, and drops none they
// keep.
func FuzzGlobPrefilter(f *testing.F) {
	for _, c := range [][2]string{
		{"migrations", "shop/contrib/accounts/migrations/0011.py"}, {"**/migrations", "a/migrations/x.py"},
		{"migrations/", "a/migrations/x.py"}, {"/vendor", "vendor/a.go"}, {"*.ts", "src/a.ts"},
		{"src/auth", "src/auth/x.ts"}, {"src/{auth,lib}/*.ts", "src/lib/a.ts"}, {"a/b/", "a/b"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, pat, p string) {
		// Stars as doublestar reads them its own way ("0***" is no match
		// for "0", "0**" is; odd), and bracket classes of backward ranges
		// and the like, which the prefilter reads as their text
		// ([00--]), are no patterns a person writes: left out.
		if odd.MatchString(pat) || strings.Contains(pat, "[") || !hone.ValidGlob(pat) || !utf8.ValidString(pat) || !utf8.ValidString(p) || strings.Contains(p, "//") || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || p == "" {
			return // no pattern hone takes, or no file's path
		}
		re, err := regexp.Compile(zoekt.GlobRegexp(pat))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := re.MatchString(p), matchOne(pat, p); got != want {
			t.Errorf("pattern %q, path %q: the prefilter %v (%s), matchAny %v", pat, p, got, re, want)
		}
	})
}

// BenchmarkMatchAny: four patterns of the usual kinds over 100,000 paths
// five folders deep, as Searchable tries them on a large repository.
func BenchmarkMatchAny(b *testing.B) {
	paths := make([]string, 100_000)
	for i := range paths {
		paths[i] = fmt.Sprintf("pkg%d/mod%d/sub%d/deep%d/file_%d.go", i%10, i%97, i%13, i%7, i)
	}
	pats := []string{"*.ts", "vendor", "src/**/*.py", "pkg3/mod*/sub1/*/x.go"}
	b.ResetTimer()
	for range b.N {
		n := 0
		for _, p := range paths {
			if matchAny(pats, p) {
				n++
			}
		}
		if n != 0 {
			b.Fatalf("%d paths matched", n)
		}
	}
}

// An absolute path into the repository is a path from its root; a
// pattern with a leading / that lies outside it is the .gitignore's root
// anchor, as it was (a review's finding: --exclude of a file's absolute
// path matched nothing).
func TestInRepository(t *testing.T) {
	root := filepath.FromSlash("/home/me/repo")
	for _, tt := range []struct{ in, want string }{
		{"/home/me/repo/src/kiln/sessions.py", "/src/kiln/sessions.py"},
		{"/home/me/repo/src/**/*.py", "/src/**/*.py"},
		{"/home/me/repo", "."},
		{"/home/me/repository/x.py", "/home/me/repository/x.py"},
		{"/vendor", "/vendor"},
		{"src/auth", "src/auth"},
		{"*.ts", "*.ts"},
	} {
		got := inRepository(root, []string{tt.in})
		if got[0] != tt.want {
			t.Errorf("inRepository(%q) = %q, want %q", tt.in, got[0], tt.want)
		}
	}
	if in := []string{"a", "b"}; &inRepository(root, in)[0] != &in[0] {
		t.Error("patterns with nothing to change were copied")
	}
}
