package pack

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// tokenizerCounts is the tokenizer's own count of s.
func tokenizerCounts(t testing.TB, s string) int {
	t.Helper()
	enc, err := o200k()
	if err != nil {
		t.Skip("the o200k tokenizer does not load:", err)
	}
	n, err := enc.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var countCases = []string{
	"",
	"hello world",
	"Hello World HTTPRequest parseJSONValue IDs",
	"    return x\n\n\n    y = 1\r\n\tz",
	"a  \n  b   \n\n   ",
	"   ",
	" \u00a0\u3000x\u2028y\u0085z",
	"don't I'M we'Ll they'RE it'S you'VE I'D 'tis",
	"12345 1,000,000 ١٢٣٤ ½ Ⅻ",
	"x/y//z\n/// doc\r\n// c\n",
	"\x7f$a x\x7f $\x7f$ \x7f\x7f",
	" \x7f\"A (\x7fa \t\x7f AB\x7fc 1\x7f2 \n\x7f\n",
	"(foo) [bar] {baz}; a->b, c::d, e?.f ?? g",
	"naïve café résumé Ñandú ÉCOLE",
	"e\u0301 \u0301\u0302 a\u0308b",
	"日本語のテキストと中文文本 한국어",
	"ǅemal ǈ ǋ Σίσυφος ΣΊΣΥΦΟΣ",
	"emoji 🚀🔥 👩‍💻 flags 🇫🇷",
	"ʰʲ ʷ ˀ ـ ᴬᴮ",
	"\x00\x01\x1f\x7f",
	"def f():\n    \"\"\"Doc.\"\"\"\n    return {'a': 1}  # comment\n",
	"<|endoftext|> <|endofprompt|>",
	"\n\n\n",
	"\r\r\n\n\r",
	"İstanbul ſtraße K Å",
	"x'S y'ſ z'ǅ",
	" I'ſ Then I'ſ go I'ſt",
}

// The counts are the tokenizer's, on cases chosen to cross the pattern's
// branches, and on every text file of this repository.
func TestCountMatchesTokenizer(t *testing.T) {
	for _, s := range countCases {
		if got, want := CountTokens(s), tokenizerCounts(t, s); got != want {
			t.Errorf("%q: %d tokens, the tokenizer counts %d", s, got, want)
		}
	}
	root := filepath.Join("..")
	files := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return fs.SkipDir
		}
		if d.IsDir() || files >= 400 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 200_000 || !utf8.Valid(b) {
			return nil
		}
		files++
		if got, want := CountTokens(string(b)), tokenizerCounts(t, string(b)); got != want {
			t.Errorf("%s: %d tokens, the tokenizer counts %d", p, got, want)
		}
		return nil
	})
	if files < 50 {
		t.Errorf("only %d files read", files)
	}
}

func FuzzCountTokens(f *testing.F) {
	for _, s := range countCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := CountTokens(s), tokenizerCounts(t, s); got != want {
			t.Fatalf("%q: %d tokens, the tokenizer counts %d", s, got, want)
		}
	})
}

func BenchmarkCountTokens(b *testing.B) { benchCount(b, CountTokens) }

func BenchmarkCountTokensTokenizer(b *testing.B) {
	benchCount(b, func(s string) int { return tokenizerCounts(b, s) })
}

// benchCount times count on this package's largest file.
func benchCount(b *testing.B, count func(string) int) {
	src, err := os.ReadFile("pack.go")
	if err != nil {
		b.Fatal(err)
	}
	s := string(src)
	b.SetBytes(int64(len(s)))
	for i := 0; i < b.N; i++ {
		count(s)
	}
}

// The pieces kept own their bytes: a piece cut from a text would keep the
// whole text, a file's contents, alive as long as the piece is kept.
func TestPiecesOwnTheirBytes(t *testing.T) {
	text := strings.Repeat("unsharedpiecetext ", 4) + "ownedpiece"
	CountTokens(text)
	from := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	to := from + uintptr(len(text))
	pieces.Lock()
	defer pieces.Unlock()
	kept := 0
	for k := range pieces.n {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(k))); p >= from && p < to {
			t.Errorf("the kept piece %q is cut from the text counted", k)
		}
		kept++
	}
	if kept == 0 {
		t.Error("no piece kept")
	}
}

// Warm loads the tokenizer beside counts already under way: each count is
// the tokenizer's own, whichever goroutine loaded it.
func TestWarmBesideCounts(t *testing.T) {
	texts := []string{"func (s *Server) Run(ctx context.Context) error {", "héllo wörld 123456", "  \n\t// a comment\n"}
	var wg sync.WaitGroup
	Warm()
	for _, text := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Warm()
			enc, err := o200k()
			if err != nil {
				t.Error(err)
				return
			}
			if got, want := CountTokens(text), tokenizerCount(enc, text); got != want {
				t.Errorf("%q: %d tokens, the tokenizer's %d", text, got, want)
			}
		}()
	}
	wg.Wait()
}
