// Package redact makes what hone prints, stores or sends safe: it hides
// secrets, and quotes or replaces what could forge output (file names with
// control characters, contents that are not UTF-8). Every output of hone
// (the text trace, JSON, context packs, every MCP tool's answer) and the
// index's tokens pass through it.
//
// The rules are gitleaks' default rule set (about 220 formats: cloud keys,
// tokens of code hosts and payment providers, private-key blocks, and a
// generic rule for values with high entropy assigned to names such as key,
// secret or token), loaded from its Go module and matched here, plus a few
// rules of hone's own for what gitleaks leaves to other tools: passwords in
// URLs, values assigned to password or secret names in config files, and
// default values of environment lookups.
//
// A secret is replaced by a placeholder that says what it hid:
// "[redacted: aws-access-token]".
package redact

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
)

// Finding is one secret in a text: the bytes [Start, End) are the secret
// itself, Rule the id of the rule that found it.
type Finding struct {
	Rule       string
	Start, End int
}

// A Redactor finds and hides secrets. It is safe for concurrent use.
type Redactor struct {
	rules    []rule
	keywords *keywordScanner
	// byKeyword maps a keyword to the rules it enables; byPattern has the
	// same lists by the keyword's number in the trie.
	byKeyword map[string][]int
	byPattern [][]int
	always    []int // rules with no keyword, run on every text
	global    []*config.Allowlist
	// stopWords are the allowlists' stop words, lowered, which their
	// stand-ins number (standIn).
	stopWords [][]string
}

// Rule names a rule of gitleaks' set and its pattern.
type Rule struct {
	ID, Pattern string
}

// Rules lists the gitleaks rules the default redactor matches text with.
func Rules() []Rule {
	var out []Rule
	for _, rl := range Default().rules {
		if rl.pattern != "" {
			out = append(out, Rule{ID: rl.id, Pattern: rl.pattern})
		}
	}
	return out
}

// rule is one compiled rule, from gitleaks or hone.
type rule struct {
	id        string
	pattern   string // gitleaks' rules only
	match     func(text string, from, to int, emit func(start, end int))
	wholeText bool              // the rule's matches can span lines
	path      func(string) bool // if set, the rule holds only in files it accepts
	keywords  []string          // the rule runs only near one of these
	// maybe, if set, is a cheap test that a text may hold a match: false
	// only when the rule cannot match it.
	maybe func(text string) bool
}

var (
	defaultOnce sync.Once
	defaultR    *Redactor
	defaultErr  error
)

// Default is the redactor with gitleaks' default rules and hone's own,
// built once. Building takes about 15 ms (each rule's pattern is compiled
// when a text first needs it); Warm builds it in the background.
func Default() *Redactor {
	defaultOnce.Do(func() {
		defaultR, defaultErr = New()
		if defaultErr != nil {
			// The rules are embedded: a failure is a build defect, and
			// hone must not print unredacted text, so it falls back to
			// its own rules alone.
			defaultR = fallback()
		}
	})
	return defaultR
}

// Warm builds the default redactor in the background.
func Warm() { go Default() }

// New builds a redactor from gitleaks' default configuration and hone's
// own rules.
func New() (*Redactor, error) {
	// gitleaks reads its configuration with viper; decoding the TOML
	// straight into the same struct gives the same rules
	// (TestDecodeAsGitleaks) at a fifth of the time and a third of the
	// memory, which every process that prints pays.
	var vc config.ViperConfig
	if err := toml.Unmarshal([]byte(config.DefaultConfig), &vc); err != nil {
		return nil, fmt.Errorf("redact: decode gitleaks' default rules: %w", err)
	}
	r := &Redactor{}
	// Translate compiles every rule's pattern and builds a trie of each
	// allowlist's stop words: two thirds of the 45 ms it took to build
	// the redactor, in every hone process, though a run needs only the
	// rules whose keywords its text holds. Translate gets stand-ins: each
	// pattern is compiled when a text first needs it, and stop words are
	// looked up directly (stopWords).
	patterns := map[string]string{}
	for i := range vc.Rules {
		vr := &vc.Rules[i]
		if vr.Regex != "" {
			patterns[vr.ID] = vr.Regex
			// As many groups as the secret's, which Translate checks.
			vr.Regex = "(?:)" + strings.Repeat("()", max(vr.SecretGroup, 0))
		}
		if vr.AllowList != nil {
			r.standIn(&vr.AllowList.StopWords)
		}
		for _, a := range vr.Allowlists {
			r.standIn(&a.StopWords)
		}
	}
	//lint:ignore SA1019 Translate still reads the deprecated form, so its stop words need their stand-in too.
	if al := vc.AllowList; al != nil {
		r.standIn(&al.StopWords)
	}
	for _, a := range vc.Allowlists {
		r.standIn(&a.StopWords)
	}
	cfg, err := vc.Translate()
	if err != nil {
		return nil, fmt.Errorf("redact: compile gitleaks' default rules: %w", err)
	}
	r.global = cfg.Allowlists
	ids := make([]string, 0, len(cfg.Rules))
	for id := range cfg.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		gr := cfg.Rules[id]
		src, ok := patterns[id]
		if !ok || gr.SkipReport {
			continue // path-only rules name files, not text
		}
		r.addGitleaks(&gr, src)
	}
	for _, h := range honeRules() {
		r.add(h, h.keywords)
	}
	r.build()
	return r, nil
}

// fallback is hone's own rules alone.
func fallback() *Redactor {
	r := &Redactor{}
	for _, h := range honeRules() {
		r.add(h, h.keywords)
	}
	r.build()
	return r
}

// stopWordMark starts the one stand-in stop word an allowlist gets; its
// number names the real ones in Redactor.stopWords.
const stopWordMark = "\x00hone stop words "

// standIn keeps an allowlist's stop words, lowered as gitleaks lowers
// them, and leaves one that no text holds in their place.
func (r *Redactor) standIn(words *[]string) {
	if len(*words) == 0 {
		return
	}
	lower := make([]string, len(*words))
	for i, w := range *words {
		lower[i] = strings.ToLower(w)
	}
	r.stopWords = append(r.stopWords, lower)
	*words = []string{stopWordMark + strconv.Itoa(len(r.stopWords)-1)}
}

// hasStopWord reports whether the secret holds one of the allowlist's stop
// words, as gitleaks' Allowlist.ContainsStopWord does.
func (r *Redactor) hasStopWord(a *config.Allowlist, secret string) bool {
	if len(a.StopWords) != 1 || !strings.HasPrefix(a.StopWords[0], stopWordMark) {
		ok, _ := a.ContainsStopWord(secret)
		return ok
	}
	n, err := strconv.Atoi(strings.TrimPrefix(a.StopWords[0], stopWordMark))
	if err != nil || n < 0 || n >= len(r.stopWords) || secret == "" {
		return false
	}
	lower := strings.ToLower(secret)
	for _, w := range r.stopWords[n] {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func (r *Redactor) addGitleaks(gr *config.Rule, src string) {
	re := lazyre.New(src)
	secretGroup := gr.SecretGroup
	entropy := gr.Entropy
	rl := rule{
		id:        gr.RuleID,
		pattern:   src,
		wholeText: strings.Contains(src, `\s\S`) || strings.Contains(src, `(?s`) || strings.Contains(src, `\n`),
	}
	if gr.Path != nil {
		rl.path = gr.Path.MatchString
	}
	rl.maybe = gitleaksMaybe(gr.RuleID, src, entropy)
	// Many rules start with a lazy run of up to 50 name characters before
	// their keyword, which keeps 50 matcher threads alive at every byte:
	// a text must first match the rest alone.
	pre := func() *regexp.Regexp { return nil }
	if rest, ok := strings.CutPrefix(src, `(?i)[\w.-]{0,50}?`); ok {
		pre = sync.OnceValue(func() *regexp.Regexp {
			p, _ := regexp.Compile(`(?i)` + rest)
			return p
		})
	}
	rl.match = func(text string, from, to int, emit func(start, end int)) {
		if p := pre(); p != nil && !p.MatchString(text[from:to]) {
			return
		}
		for _, m := range re().FindAllStringSubmatchIndex(text[from:to], -1) {
			s, e := m[0], m[1]
			// The secret is the chosen group, else the first group that
			// matched, else the whole match (gitleaks' choice).
			if secretGroup > 0 && 2*secretGroup+1 < len(m) && m[2*secretGroup] >= 0 {
				s, e = m[2*secretGroup], m[2*secretGroup+1]
			} else {
				for g := 1; 2*g+1 < len(m); g++ {
					if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
						s, e = m[2*g], m[2*g+1]
						break
					}
				}
			}
			// gitleaks trims line ends from a match.
			for e > s && text[from+e-1] == '\n' {
				e--
			}
			for s < e && text[from+s] == '\n' {
				s++
			}
			secret := text[from+s : from+e]
			if secret == "" || entropy != 0 && shannon(secret) <= entropy {
				continue
			}
			match := text[from+m[0] : from+m[1]]
			line := lineAround(text, from+m[0], from+m[1])
			if r.allowed(gr.Allowlists, secret, match, line) || r.allowed(r.global, secret, match, line) {
				continue
			}
			emit(from+s, from+e)
		}
	}
	r.add(rl, gr.Keywords)
}

// gitleaksMaybe is the prefilter of a gitleaks rule whose keywords are
// common words, for the pattern it was written for: nil for any other.
// entropy is the rule's: a secret of no more is not kept.
func gitleaksMaybe(id, pattern string, entropy float64) func(text string) bool {
	switch {
	case id == "kubernetes-secret-yaml" && pattern == kubernetesSecretPattern:
		// Both of its forms hold "data:", which (?i) folds to nothing
		// past ASCII, and "kind:", whose k the Kelvin sign folds to.
		return func(text string) bool {
			lower := asciiLower(text)
			return bytes.Contains(lower, []byte("data:")) && (bytes.Contains(lower, []byte("kind:")) || strings.Contains(text, "\u212a"))
		}
	case id == "vault-service-token" && pattern == vaultTokenPattern:
		return mayVaultToken
	case id == "generic-api-key" && pattern == genericKeyPattern:
		return func(text string) bool { return mayGenericKey(text, entropy) }
	case id == "jwt" && pattern == jwtPattern:
		// Its second part starts ".ey", in that case: most lines its
		// keyword "ey" finds are words (key, they, survey).
		return func(text string) bool { return strings.Contains(text, ".ey") }
	}
	return nil
}

const (
	kubernetesSecretPattern = `(?i)(?:\bkind:[ \t]*["']?\bsecret\b["']?(?s:.){0,200}?\bdata:(?s:.){0,100}?\s+([\w.-]+:(?:[ \t]*(?:\||>[-+]?)\s+)?[ \t]*(?:["']?[a-z0-9+/]{10,}={0,3}["']?|\{\{[ \t\w"|$:=,.-]+}}|""|''))|\bdata:(?s:.){0,100}?\s+([\w.-]+:(?:[ \t]*(?:\||>[-+]?)\s+)?[ \t]*(?:["']?[a-z0-9+/]{10,}={0,3}["']?|\{\{[ \t\w"|$:=,.-]+}}|""|''))(?s:.){0,200}?\bkind:[ \t]*["']?\bsecret\b["']?)`
	genericKeyPattern       = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`
	jwtPattern              = `\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9\/\\_-]{17,}\.(?:[a-zA-Z0-9\/\\_-]{10,}={0,2})?)(?:[\x60'"\s;]|\\[nr]|$)`
	vaultTokenPattern       = `\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))(?:[\x60'"\s;]|\\[nr]|$)`
)

// mayVaultToken is false when a text holds no "s." followed by 24 bytes
// that are ASCII letters or digits, or past ASCII (which (?i) may fold
// into letters), nor "hvs." followed by 90 word bytes or dashes: the
// least that either form of the token needs.
func mayVaultToken(text string) bool {
	run := func(from, n int, ok func(c byte) bool) bool {
		if from+n > len(text) {
			return false
		}
		for i := from; i < from+n; i++ {
			if !ok(text[i]) {
				return false
			}
		}
		return true
	}
	alnum := func(c byte) bool {
		return c >= utf8.RuneSelf || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	wordDash := func(c byte) bool {
		return c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	for off := 0; off < len(text); {
		k := strings.Index(text[off:], "s.")
		if k < 0 {
			return false
		}
		i := off + k
		if run(i+2, 24, alnum) || i >= 2 && text[i-2:i] == "hv" && run(i+2, 90, wordDash) {
			return true
		}
		off = i + 1
	}
	return false
}

// mayGenericKey is false when generic-api-key cannot match a text: no
// operator (each of its operators ends in one of "=>:|,") that one of
// its keywords stands before is followed,
// past at most 5 quotes, blanks or "=", by a value the pattern ends: 10
// to 150 letters, digits and "_.=-", or 12 or more letters, digits and
// "+/" then at most three "=", either followed by a quote, a blank, ";",
// an escaped n or r, or the text's end; and, where the rule asks for an
// entropy, a value of more (the value is the secret it keeps). The
// classes are ASCII's, but for the characters (?i) folds into ASCII
// letters: a text with one is always tried.
func mayGenericKey(text string, entropy float64) bool {
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	word := func(c byte) bool { return alnum(c) || strings.IndexByte("_.=-", c) >= 0 }
	base64 := func(c byte) bool { return alnum(c) || c == '+' || c == '/' }
	skip := func(c byte) bool { return strings.IndexByte("`'\"\t\n\f\r =", c) >= 0 }
	// ends: the pattern's last group, (?:[\x60'"\s;]|\\[nr]|$), folded.
	ends := func(e int) bool {
		return e == len(text) || strings.IndexByte("`'\"\t\n\f\r ;", text[e]) >= 0 ||
			text[e] == '\\' && e+1 < len(text) && strings.IndexByte("nrNR", text[e+1]) >= 0
	}
	if foldsToASCII(text) {
		return true
	}
	var lower []byte
	// keyBefore: one of the pattern's keywords ends at most 26 bytes
	// before the operator ending at p (23 of names, blanks and quotes,
	// and the operator's first 3), with only those between.
	keyBefore := func(p int) bool {
		if lower == nil {
			lower = asciiLower(text)
		}
		b := p
		for b > 0 && p-b < 26 && (word(lower[b-1]) || strings.IndexByte(" \t\n\f\r'\"-:|>?,", lower[b-1]) >= 0) {
			b--
		}
		for end := b; end <= p; end++ {
			for _, k := range genericKeywords {
				if end >= len(k) && string(lower[end-len(k):end]) == k {
					return true
				}
			}
		}
		return false
	}
	for p := 0; p < len(text); p++ {
		if strings.IndexByte("=>:|,", text[p]) < 0 {
			continue
		}
		key := 0 // keyBefore(p), once asked: 1 yes, -1 no
		for k := p + 1; k <= p+6 && k < len(text); k++ {
			// Each form's run is whole: what may follow it is none of
			// its bytes.
			e := k
			for e < len(text) && word(text[e]) {
				e++
			}
			// The value the pattern would keep, if it ends at e: the
			// cheap tests first.
			kept := func(e int) bool {
				if !ends(e) {
					return false
				}
				if key == 0 {
					key = -1
					if keyBefore(p) {
						key = 1
					}
				}
				return key == 1 && (entropy == 0 || shannon(text[k:e]) > entropy)
			}
			if n := e - k; n >= 10 && n <= 150 && kept(e) {
				return true
			}
			if alnum(text[k]) {
				e := k
				for e < len(text) && base64(text[e]) {
					e++
				}
				if e-k >= 12 {
					for n := 0; n < 3 && e < len(text) && text[e] == '='; n++ {
						e++
					}
					if kept(e) {
						return true
					}
				}
			}
			if !skip(text[k]) {
				break
			}
		}
	}
	return false
}

// genericKeywords are generic-api-key's keywords, lower-cased: one ends
// before its operator.
var genericKeywords = []string{"access", "auth", "api", "credential", "creds", "key", "passwd", "password", "secret", "token"}

func (r *Redactor) add(rl rule, keywords []string) {
	i := len(r.rules)
	r.rules = append(r.rules, rl)
	if len(keywords) == 0 {
		r.always = append(r.always, i)
		return
	}
	if r.byKeyword == nil {
		r.byKeyword = map[string][]int{}
	}
	for _, k := range keywords {
		k = strings.ToLower(k)
		r.byKeyword[k] = append(r.byKeyword[k], i)
	}
}

func (r *Redactor) build() {
	var kws []string
	for k := range r.byKeyword {
		kws = append(kws, k)
	}
	sort.Strings(kws)
	r.keywords = newKeywordScanner(kws)
	r.byPattern = make([][]int, len(kws))
	for i, k := range kws {
		r.byPattern[i] = r.byKeyword[k]
	}
}

// allowed applies gitleaks' allowlists to a finding: regexes on the secret,
// the match or the line, and stop words in the secret. Paths and commits
// are not known here and never allow.
func (r *Redactor) allowed(lists []*config.Allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regex := a.RegexAllowed(target)
		stop := r.hasStopWord(a, secret)
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Commits) > 0 || len(a.Paths) > 0 {
				continue
			}
			ok := len(a.Regexes) > 0 || len(a.StopWords) > 0
			if len(a.Regexes) > 0 && !regex || len(a.StopWords) > 0 && !stop {
				ok = false
			}
			if ok {
				return true
			}
			continue
		}
		if regex || stop {
			return true
		}
	}
	return false
}

// lineAround is the line (or lines) holding text[from:to].
func lineAround(text string, from, to int) string {
	s := strings.LastIndexByte(text[:from], '\n') + 1
	e := strings.IndexByte(text[to:], '\n')
	if e < 0 {
		return text[s:]
	}
	return text[s : to+e]
}

// Find returns the secrets in a text, in order, overlapping ones merged.
// Rules that hold only in some files (Terraform's, say) are left out: see
// FindIn.
func (r *Redactor) Find(text string) []Finding { return r.FindIn("", text) }

// FindIn is Find for the contents of the file at path (slash-separated),
// with the rules that hold only in some files.
func (r *Redactor) FindIn(path, text string) []Finding {
	if text == "" {
		return nil
	}
	var found []Finding
	// Each rule runs on the lines that hold one of its keywords, or on
	// the whole text when its matches can span lines: far less text than
	// the whole for the generic rules whose keywords (key, token, auth)
	// are everywhere, and short inputs let the regexp package use its
	// faster matcher.
	//
	// On a line longer than longLine (minified code, data), a rule reads
	// the bytes within nearKeyword of each keyword, not the whole line: a
	// rule's match holds its keyword, and is shorter than that. A secret
	// found at the edge of such a window may run past it: the rule then
	// reads the whole line.
	windows := map[int][][2]int{}
	last := [2]int{-1, -1} // the line of the keyword before: a long line holds many
	r.keywords.scan(text, func(k, pos int) {
		end := pos + r.keywords.lens[k]
		line := last
		if pos < last[0] || end > last[1] {
			line = lineOf(text, pos, end)
			last = line
		}
		win := line
		if line[1]-line[0] > longLine {
			win = [2]int{max(line[0], pos-nearKeyword), min(line[1], end+nearKeyword)}
		}
		for _, ri := range r.byPattern[k] {
			ws := windows[ri]
			if n := len(ws); n > 0 && ws[n-1] == win {
				continue
			}
			windows[ri] = append(ws, win)
		}
	})
	run := func(ri int, spans [][2]int) {
		rl := r.rules[ri]
		if rl.path != nil && (path == "" || !rl.path(path)) {
			return
		}
		emit := func(s, e int) { found = append(found, Finding{Rule: rl.id, Start: s, End: e}) }
		if rl.wholeText {
			if rl.maybe == nil || rl.maybe(text) {
				rl.match(text, 0, len(text), emit)
			}
			return
		}
		line := [2]int{-1, -1}  // the line of the window before
		whole := [2]int{-1, -1} // the last line read whole for an edge
		for _, w := range merge(spans) {
			if w[0] >= whole[0] && w[1] <= whole[1] {
				continue // its line's findings are in already
			}
			if w[0] < line[0] || w[1] > line[1] {
				line = lineOf(text, w[0], w[1])
			}
			if rl.maybe != nil && !rl.maybe(text[w[0]:w[1]]) {
				continue
			}
			if w == line {
				rl.match(text, w[0], w[1], emit)
				continue
			}
			n, edge := len(found), false
			rl.match(text, w[0], w[1], func(s, e int) {
				edge = edge || s <= w[0] && w[0] > line[0] || e >= w[1] && w[1] < line[1]
				emit(s, e)
			})
			if edge {
				found = found[:n]
				rl.match(text, line[0], line[1], emit)
				whole = line
			}
		}
	}
	order := make([]int, 0, len(windows))
	for ri := range windows {
		order = append(order, ri)
	}
	sort.Ints(order)
	for _, ri := range order {
		run(ri, windows[ri])
	}
	for _, ri := range r.always {
		run(ri, [][2]int{{0, len(text)}})
	}
	return mergeFindings(found)
}

// asciiLower lowers ASCII letters alone, so that offsets in it are
// offsets in the text (keywords are ASCII).
func asciiLower(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// lineOf is the span of the line (or lines) holding text[from:to].
func lineOf(text string, from, to int) [2]int {
	s := strings.LastIndexByte(text[:from], '\n') + 1
	e := strings.IndexByte(text[to:], '\n')
	if e < 0 {
		return [2]int{s, len(text)}
	}
	return [2]int{s, to + e}
}

// merge sorts spans and joins those that overlap: repeats of a line, and
// a long line's windows around keywords near each other.
func merge(spans [][2]int) [][2]int {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	out := spans[:0]
	for _, s := range spans {
		if n := len(out); n > 0 && s[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// longLine is the length of line past which the rules read near their
// keywords alone (see FindIn); nearKeyword is how near. Variables for the
// tests, which compare the windows' findings with the whole lines'.
var (
	longLine    = 4096
	nearKeyword = 1024
)

func mergeFindings(fs []Finding) []Finding {
	if len(fs) == 0 {
		return nil
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		return fs[i].End > fs[j].End
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		last := &out[len(out)-1]
		if f.Start < last.End {
			last.End = max(last.End, f.End)
			if specificity(f.Rule) > specificity(last.Rule) {
				last.Rule = f.Rule
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// specificity ranks rules for the placeholder of overlapping findings: a
// named format says more than a generic rule.
func specificity(rule string) int {
	switch rule {
	case "generic-api-key":
		return 0
	case "assigned-secret", "url-token":
		return 1
	}
	return 2
}

const placeholderPrefix = "[redacted: "

// Placeholder is what a secret found by a rule is replaced with.
func Placeholder(rule string) string { return placeholderPrefix + rule + "]" }

// HasPlaceholder reports whether a text holds a secret's placeholder: a
// path that does, a file named for a secret, is redacted and names no
// file.
func HasPlaceholder(s string) bool { return strings.Contains(s, placeholderPrefix) }

// String hides the secrets in a text and counts them.
func (r *Redactor) String(text string) (string, int) { return r.File("", text) }

// File hides the secrets in the contents of the file at path, as String
// does, with the rules that hold only in some files.
func (r *Redactor) File(path, text string) (string, int) {
	return hide(text, r.FindIn(path, text), false)
}

// hide replaces each secret found in text with its placeholder; by line,
// on each line a secret holds, where lines is set.
func hide(text string, fs []Finding, lines bool) (string, int) {
	if len(fs) == 0 {
		return text, 0
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, f := range fs {
		b.WriteString(text[at:f.Start])
		if !lines {
			b.WriteString(Placeholder(f.Rule))
		} else {
			for i, part := range strings.Split(text[f.Start:f.End], "\n") {
				if i > 0 {
					b.WriteByte('\n')
				}
				if i == 0 || strings.TrimSpace(part) != "" {
					b.WriteString(Placeholder(f.Rule))
				}
			}
		}
		at = f.End
	}
	b.WriteString(text[at:])
	return b.String(), len(fs)
}

// FileLines hides the secrets in the contents of the file at path as File
// does, keeping its lines: a secret over several lines (a private key)
// leaves its placeholder on each line it held, so that the text's line
// numbers stay the file's.
func (r *Redactor) FileLines(path, text string) (string, int) {
	return hide(text, r.FindIn(path, text), true)
}

// String hides the secrets in a text with the default redactor.
func String(text string) (string, int) { return Default().String(text) }

// FileLines hides the secrets in a file's contents with the default
// redactor, keeping its lines.
func FileLines(path, text string) (string, int) { return Default().FileLines(path, text) }

// File hides the secrets in a file's contents with the default redactor.
func File(path, text string) (string, int) { return Default().File(path, text) }

// Value hides the secrets in every string that v points to (struct
// fields, slices, maps, pointers; unexported fields are left alone), in
// place, and counts the secrets hidden in them: those it hides and those
// hidden before it (a commit subject is redacted as it is read). What v
// holds but does not point to (a struct passed by value) cannot be
// changed, and is neither changed nor counted: pass a pointer. It is for
// results about to be encoded as JSON,
// so it also quotes a string that is not UTF-8 (a file name, mostly), as
// QuotePath does: encoding would turn its bytes into U+FFFD, a name that
// does not exist.
func Value(v any) int {
	return Default().value(reflect.ValueOf(v), 0, true)
}

// TextValue is Value for a result printed as text, whose printer quotes
// the names that need it (QuotePath): a string that is not UTF-8 is left
// as it is.
func TextValue(v any) int {
	return Default().value(reflect.ValueOf(v), 0, false)
}

func (r *Redactor) value(v reflect.Value, depth int, quote bool) int {
	if depth > 32 || !v.IsValid() {
		return 0
	}
	n := 0
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.String {
			if !v.CanSet() {
				return 0 // as a string that cannot be set: hidden, it would be counted and left
			}
			old := v.Elem().String()
			s, _ := r.String(old)
			if quote {
				s = JSONName(s)
			}
			if s != old {
				v.Set(reflect.ValueOf(s).Convert(v.Elem().Type()))
			}
			return strings.Count(s, placeholderPrefix)
		}
		return r.value(v.Elem(), depth+1, quote)
	case reflect.String:
		if !v.CanSet() {
			return 0
		}
		s, _ := r.String(v.String())
		if quote {
			s = JSONName(s)
		}
		if s != v.String() {
			v.SetString(s)
		}
		return strings.Count(s, placeholderPrefix)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += r.value(v.Field(i), depth+1, quote)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return 0 // raw bytes are not text
		}
		for i := 0; i < v.Len(); i++ {
			n += r.value(v.Index(i), depth+1, quote)
		}
	case reflect.Map:
		// A value is redacted in a copy, set back; a string key (a
		// path, mostly) too, its entry moved to the redacted key (two
		// keys that redact alike keep one of their values).
		iter := v.MapRange()
		type kv struct{ old, k, v reflect.Value }
		var updates []kv
		for iter.Next() {
			val := iter.Value()
			cp := reflect.New(val.Type()).Elem()
			cp.Set(val)
			k := r.value(cp, depth+1, quote)
			key, moved := iter.Key(), false
			if key.Kind() == reflect.String {
				kc := reflect.New(key.Type()).Elem()
				kc.Set(key)
				k += r.value(kc, depth+1, quote)
				if moved = kc.String() != key.String(); moved {
					key = kc
				}
			}
			if k > 0 || moved {
				n += k
				updates = append(updates, kv{iter.Key(), key, cp})
			}
		}
		for _, u := range updates {
			if u.k.String() != u.old.String() {
				v.SetMapIndex(u.old, reflect.Value{})
			}
			v.SetMapIndex(u.k, u.v)
		}
	}
	return n
}

// shannon is the Shannon entropy of a string's bytes, in bits.
func shannon(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// JSONName is a string as JSON output carries it: as it is where it is
// UTF-8, else in Go's quoted form, which strconv.Unquote turns back into
// it; JSON would turn its bytes into U+FFFD.
func JSONName(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strconv.Quote(s)
}

// QuotePath writes a file name so that it cannot forge a line or reach the
// terminal as a control sequence: a name that holds control characters, is
// not UTF-8, or starts with a double quote is written in Go's quoted form
// ("a\nb.go", "\xff.go"), as git's core.quotePath does; others as they are.
// Unquote reverses it. A result printed as text is redacted with
// TextValue, not Value, so that its names are quoted here once.
func QuotePath(p string) string {
	if !needsQuote(p) {
		return p
	}
	return strconv.Quote(p)
}

func needsQuote(p string) bool {
	if p == "" {
		return false
	}
	if p[0] == '"' || !utf8.ValidString(p) {
		return true
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 || c == 0x2028 || c == 0x2029 || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069 {
			return true // controls, line separators, bidirectional overrides
		}
	}
	return false
}

// Short is s redacted, on one line (its runs of white space one space),
// and cut as Cut has it: redacted before it is cut, so that no secret the
// cut splits passes the rules in pieces.
func Short(s string, n int) string {
	s, _ = String(s)
	return Cut(strings.Join(strings.Fields(s), " "), n)
}

// Cut is s cut to n bytes at most, between characters, then "…" (3
// bytes more) where it was cut; a negative n is 0. It redacts nothing:
// cut a text that passed the redaction.
func Cut(s string, n int) string {
	n = max(n, 0)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Line makes a text one line of output: control characters go, as
// CleanText has them, and so do the controls that reorder a line
// (bidirectional overrides and isolates, U+202A–U+202E, U+2066–U+2069);
// line ends and line separators become spaces, so that a commit subject
// or a reason cannot forge a line, nor show its words in another order.
func Line(s string) string {
	s, _ = CleanText(s)
	return lineReplacer.Replace(s)
}

var lineReplacer = strings.NewReplacer("\n", " ", "\r", " ", "\u2028", " ", "\u2029", " ",
	"\u202a", "\ufffd", "\u202b", "\ufffd", "\u202c", "\ufffd", "\u202d", "\ufffd", "\u202e", "\ufffd",
	"\u2066", "\ufffd", "\u2067", "\ufffd", "\u2068", "\ufffd", "\u2069", "\ufffd")

// control is a character CleanText replaces: a C0 control but tab, line
// feed and carriage return, DEL, and a C1 control (U+0080–U+009F, of
// which U+009B is a terminal's escape sequence's start).
func control(c rune) bool {
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7f && c < 0xa0
}

// CleanText makes file contents safe to print: NUL bytes and bytes that
// are not UTF-8 become U+FFFD, and so do the control characters (control),
// so that no escape sequence reaches a terminal. It counts what it
// replaced.
func CleanText(s string) (string, int) {
	clean := true
	for _, c := range s {
		if c == utf8.RuneError || control(c) {
			clean = false
			break
		}
	}
	if clean {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	n := 0
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size <= 1 || control(c) {
			b.WriteRune(utf8.RuneError)
			n++
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), n
}

// Mask hides the secrets in a file's contents for the index: each byte of
// a secret becomes a space, so offsets stay where they were and the
// secret's tokens never reach the index.
func Mask(path string, src []byte) ([]byte, int) {
	// src read as a string where it lies: the findings are offsets, and
	// nothing of the text outlives the call.
	fs := Default().FindIn(path, unsafe.String(unsafe.SliceData(src), len(src)))
	if len(fs) == 0 {
		return src, 0
	}
	out := append([]byte(nil), src...)
	for _, f := range fs {
		for i := f.Start; i < f.End; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	return out, len(fs)
}
