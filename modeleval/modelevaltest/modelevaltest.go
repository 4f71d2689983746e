// Package modelevaltest fakes a model for tests: the answers a model that
// follows a rule gives to modeleval's prompts, and the API shapes that
// carry them.
package modelevaltest

import (
	"encoding/json"
	"strings"
)

// Files are the paths a prompt shows, in order: modeleval heads each
// file's excerpt with a line "=== PATH".
func Files(prompt string) []string {
	var out []string
	for _, l := range strings.Split(prompt, "\n") {
		if p, ok := strings.CutPrefix(l, "=== "); ok {
			out = append(out, p)
		}
	}
	return out
}

// Verdict is one file's, as the answer's schema has it.
type Verdict struct {
	Path           string   `json:"path"`
	Relevance      float64  `json:"relevance"`
	Reason         string   `json:"reason"`
	MissingContext []string `json:"missing_context"`
	Terms          []string `json:"terms"`
}

// Answer is the JSON a model gives that judges each file of the prompt at
// rule(path), with the reason and the terms.
func Answer(prompt string, rule func(path string) float64, reason string, terms ...string) string {
	a := struct {
		Files []Verdict `json:"files"`
	}{Files: []Verdict{}}
	if terms == nil {
		terms = []string{}
	}
	for _, p := range Files(prompt) {
		a.Files = append(a.Files, Verdict{Path: p, Relevance: rule(p), Reason: reason, MissingContext: []string{}, Terms: terms})
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// Session is the tests' planted rule: the fixture's src/session files are
// direct, the others irrelevant.
func Session(path string) float64 {
	if strings.HasPrefix(path, "src/session/") {
		return 0.97
	}
	return 0.02
}

// OpenAIBody is a chat completion as OpenAI's API gives it, with content
// and the finish reason; a usage of 0 and 0 is left out, as some servers
// leave it.
func OpenAIBody(content, finish string, in, out int) string {
	m := map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content, "refusal": nil}, "finish_reason": finish}},
	}
	if in > 0 || out > 0 {
		m["usage"] = map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// LastUser is the content of a chat completions request's last message.
func LastUser(body []byte) string {
	var req struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return ""
	}
	return req.Messages[len(req.Messages)-1].Content
}
