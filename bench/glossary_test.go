package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGlossaryCoverage(t *testing.T) {
	texts := []string{
		"这个函数报错", // 这个: blocker; 函数, 报错: terms
		"天气很好，天气不错",
		"hello 🚀",
		"修复天气",
	}
	r := GlossaryCoverage(texts, 10)
	if r.Texts != 4 || r.HanTexts != 3 {
		t.Errorf("texts %d, with Han %d; want 4, 3", r.Texts, r.HanTexts)
	}
	// Han: 6 + 8 + 4 = 18; terms 函数 报错 修复 = 6; blockers 这个 = 2.
	if r.Han != 18 || r.Term != 6 || r.Blocker != 2 {
		t.Errorf("Han %d, term %d, blocker %d; want 18, 6, 2", r.Han, r.Term, r.Blocker)
	}
	if r.GapTexts != 2 {
		t.Errorf("texts with a gap: %d, want 2", r.GapTexts)
	}
	if len(r.Gaps) == 0 || r.Gaps[0] != (GlossaryGap{Text: "天气", Count: 3, Texts: 2}) {
		t.Fatalf("gaps %v, want 天气 first, 3 times in 2 texts", r.Gaps)
	}
	for _, g := range r.Gaps {
		if strings.ContainsAny(g.Text, "，函数") {
			t.Errorf("gap %q crosses punctuation or a term", g.Text)
		}
	}
	// 很好 is inside 天气很好 once, with the same count: only the longer
	// n-grams are listed.
	var texts2 []string
	for _, g := range r.Gaps {
		texts2 = append(texts2, g.Text)
	}
	if slices.Contains(texts2, "很好") || !slices.Contains(texts2, "天气很好") {
		t.Errorf("gaps %v: want 天气很好 and not 很好", texts2)
	}
	if got := GlossaryCoverage(texts, 1).Gaps; len(got) != 1 {
		t.Errorf("top 1 kept %d gaps", len(got))
	}
	var b strings.Builder
	r.Print(&b)
	if !strings.Contains(b.String(), "covered: 44.4% (terms 33.3%, blockers 11.1%)") {
		t.Errorf("report:\n%s", b.String())
	}
}

func TestReadTexts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.txt")
	data := "修复报错\n\n{\"problem_statement\": \"添加缓存\", \"repo\": \"a/b\"}\n{\"task\": \"删除文件\"}\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTexts(path)
	if err != nil || !slices.Equal(got, []string{"修复报错", "添加缓存", "删除文件"}) {
		t.Errorf("ReadTexts = %q, %v", got, err)
	}
	if err := os.WriteFile(path, []byte("{\"repo\": \"a/b\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTexts(path); err == nil {
		t.Error("a JSON line with no text is not an error")
	}
}
