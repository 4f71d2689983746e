package modeleval

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/redact"
)

// systemPrompt is the seed's rubric, for a model.
const systemPrompt = `You judge which files of a code repository a coding task needs: to change them, or to read them to make the change.

Judge each file on its own, by its excerpt (its outline and the lines that matter most), and give:
- relevance, from 0 to 1, in these bands:
  0.8-1.0 the file directly implements what the task is about: the change goes here;
  0.5-0.8 related: the types, patterns, callers or registration the change needs;
  0.2-0.5 tangential;
  below 0.2 irrelevant.
  Several files can each be high, and every file can be low.
- reason: one short sentence: what in the file matches the task, or why nothing does.
- missing_context: the definitions or files this file needs for the task that you have not seen, by name (at most 4).
- terms: the words and identifiers this file's code uses for what the task is about, where the code says it differently from the task (at most 4).

Answer with JSON only, as the schema says, with one entry per file, each with the file's path as given.`

// answerSchema is the JSON schema of an answer.
var answerSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"files": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"path":            map[string]any{"type": "string"},
					"relevance":       map[string]any{"type": "number"},
					"reason":          map[string]any{"type": "string"},
					"missing_context": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
					"terms":           map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				},
				"required":             []string{"path", "relevance", "reason", "missing_context", "terms"},
				"additionalProperties": false,
			},
		},
	},
	"required":             []string{"files"},
	"additionalProperties": false,
}

// buildPrompt lays out one call: the task, what the run holds so far, and
// each file's excerpt.
func buildPrompt(req hone.EvaluateRequest, b []item, answerTokens, callTokens int) Prompt {
	var u strings.Builder
	fmt.Fprintf(&u, "Task:\n%s\n\n", cutTask(strings.TrimSpace(req.Task), callTokens))
	if len(req.Relevant) > 0 {
		u.WriteString("Files already judged relevant:")
		for i, r := range req.Relevant {
			if i == 8 {
				break
			}
			fmt.Fprintf(&u, " %s", r.Path)
		}
		u.WriteString("\n")
	}
	var gaps []string
	for _, g := range req.Gaps {
		if g.Where != "" {
			gaps = append(gaps, fmt.Sprintf("%s (%s)", g.Name, g.Where))
		} else {
			gaps = append(gaps, g.Name)
		}
		if len(gaps) == 8 {
			break
		}
	}
	if len(gaps) > 0 {
		fmt.Fprintf(&u, "Context the relevant files still miss: %s\n", strings.Join(gaps, ", "))
	}
	fmt.Fprintf(&u, "\nJudge these %d files.\n", len(b))
	for _, it := range b {
		fmt.Fprintf(&u, "\n=== %s\n%s", it.path, it.excerpt.Text)
		if !strings.HasSuffix(it.excerpt.Text, "\n") {
			u.WriteString("\n")
		}
	}
	return Prompt{System: systemPrompt, User: u.String(), MaxTokens: answerTokens, Schema: answerSchema}
}

// answer is a model's answer, as the schema says.
type answer struct {
	Files []verdictJSON `json:"files"`
}

type verdictJSON struct {
	Path           string   `json:"path"`
	Relevance      *score   `json:"relevance"`
	Reason         string   `json:"reason"`
	MissingContext []string `json:"missing_context"`
	Terms          []string `json:"terms"`
}

// score is a relevance as a model writes it: a number, or a number in a
// string ("0.9"), as small local models do.
type score float64

func (s *score) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err == nil {
		*s = score(f)
		return nil
	}
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return err
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(str), 64)
	if err != nil {
		return err
	}
	*s = score(f)
	return nil
}

// maxAnswerStarts bounds the places an answer is looked for in a text.
const maxAnswerStarts = 64

// findAnswer finds the answer in a model's text: the first JSON value,
// from each "{" or "[" in turn, that is an answer (an object with its
// files) or a bare array of verdicts. Prose, a fence, a <think> block
// with code's braces in it, before or after, is passed over.
func findAnswer(text string) (answer, bool) {
	starts := 0
	for i := 0; i < len(text) && starts < maxAnswerStarts; i++ {
		c := text[i]
		if c != '{' && c != '[' {
			continue
		}
		starts++
		var raw json.RawMessage
		if json.NewDecoder(strings.NewReader(text[i:])).Decode(&raw) != nil {
			continue
		}
		var a answer
		if c == '{' {
			if json.Unmarshal(raw, &a) == nil && a.Files != nil {
				return a, true
			}
			continue
		}
		if json.Unmarshal(raw, &a.Files) == nil && len(a.Files) > 0 && a.Files[0].Path != "" {
			return a, true
		}
	}
	return answer{}, false
}

// parseAnswer reads a model's answer for a batch: a verdict for each file
// of the batch the answer names, by its path (a "./" before it is taken
// off). Text around the JSON is passed over (see findAnswer); an answer
// with no verdict on any file of the batch is malformed.
func parseAnswer(text string, b []item) ([]hone.Evaluation, error) {
	a, ok := findAnswer(text)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrMalformed, snippet(text))
	}
	asked := map[string]bool{}
	for _, it := range b {
		asked[it.path] = true
	}
	var out []hone.Evaluation
	for _, f := range a.Files {
		p := strings.TrimPrefix(strings.TrimSpace(f.Path), "./")
		if f.Relevance == nil {
			continue
		}
		r := float64(*f.Relevance)
		if !asked[p] || math.IsNaN(r) || math.IsInf(r, 0) {
			continue
		}
		asked[p] = false // one verdict a file
		out = append(out, hone.Evaluation{
			Path: p, Score: math.Max(0, math.Min(1, r)), Reason: oneLine(f.Reason, 300),
			MissingContext: clip(f.MissingContext, 4), Terms: clip(f.Terms, 4),
		})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no verdict on any file it was shown: %s", ErrMalformed, snippet(text))
	}
	return out, nil
}

// WithSchemaText is the prompt with its schema written into the user's
// message, for a model that is given none apart: a server's plain JSON
// mode, or MCP sampling.
func (p Prompt) WithSchemaText() Prompt {
	schema, err := json.Marshal(p.Schema)
	if err != nil {
		return p
	}
	p.User += "\nAnswer with one JSON object, and nothing else, that follows this JSON schema:\n" + string(schema) + "\n"
	return p
}

// snippet is the head of a bad answer, on one line, for the notice.
func snippet(s string) string {
	s = oneLine(s, 80)
	if s == "" {
		return "an empty answer"
	}
	return fmt.Sprintf("%q", s)
}

// oneLine is s on one line, of n bytes at most, redacted before it is
// cut (redact.Short).
func oneLine(s string, n int) string { return redact.Short(s, n) }

func clip(ss []string, n int) []string {
	var out []string
	for _, s := range ss {
		if s = oneLine(s, 120); s != "" && len(out) < n {
			out = append(out, s)
		}
	}
	return out
}

// cutTask holds a task to a quarter of a call's tokens, at about three
// bytes a token, its head kept and the cut marked: every call carries
// it, and a whole log pasted as a task would cost in each.
func cutTask(task string, callTokens int) string {
	limit := callTokens * 3 / 4
	if len(task) <= limit {
		return task
	}
	cut := limit
	for cut > 0 && task[cut]&0xC0 == 0x80 {
		cut--
	}
	return task[:cut] + "\n[… the rest of the task is cut]"
}
