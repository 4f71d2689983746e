package modeleval

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/hone-tools/hone"
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
	Files []struct {
		Path           string   `json:"path"`
		Relevance      *float64 `json:"relevance"`
		Reason         string   `json:"reason"`
		MissingContext []string `json:"missing_context"`
		Terms          []string `json:"terms"`
	} `json:"files"`
}

// parseAnswer reads a model's answer for a batch: a verdict for each file
// of the batch the answer names, by its path. A fence around the JSON is
// taken off; an answer with no verdict on any file of the batch is
// malformed.
func parseAnswer(text string, b []item) ([]hone.Evaluation, error) {
	t := strings.TrimSpace(text)
	if i, j := strings.IndexByte(t, '{'), strings.LastIndexByte(t, '}'); i >= 0 && j > i {
		t = t[i : j+1]
	}
	var a answer
	if err := json.Unmarshal([]byte(t), &a); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrMalformed, snippet(text))
	}
	asked := map[string]bool{}
	for _, it := range b {
		asked[it.path] = true
	}
	var out []hone.Evaluation
	for _, f := range a.Files {
		p := strings.TrimSpace(f.Path)
		if !asked[p] || f.Relevance == nil || math.IsNaN(*f.Relevance) || math.IsInf(*f.Relevance, 0) {
			continue
		}
		asked[p] = false // one verdict a file
		out = append(out, hone.Evaluation{
			Path: p, Score: math.Max(0, math.Min(1, *f.Relevance)), Reason: oneLine(f.Reason, 300),
			MissingContext: clip(f.MissingContext, 4), Terms: clip(f.Terms, 4),
		})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no verdict on any file it was shown: %s", ErrMalformed, snippet(text))
	}
	return out, nil
}

// snippet is the head of a bad answer, on one line, for the notice.
func snippet(s string) string {
	s = oneLine(s, 80)
	if s == "" {
		return "an empty answer"
	}
	return fmt.Sprintf("%q", s)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

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
