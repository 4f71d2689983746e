package modeleval

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// DefaultAnthropicURL is Anthropic's API root.
const DefaultAnthropicURL = "https://api.anthropic.com"

// anthropicVersion is the Messages API version hone speaks.
const anthropicVersion = "2023-06-01"

// Anthropic speaks Anthropic's Messages API. The answer comes as the
// input of a tool the model is made to call, whose input schema is the
// answer's: the API's way to structured output.
type Anthropic struct{ ep Endpoint }

// NewAnthropic makes a Chat over Anthropic's Messages API.
func NewAnthropic(ep Endpoint) (*Anthropic, error) {
	if ep.BaseURL == "" {
		ep.BaseURL = DefaultAnthropicURL
	}
	if err := checkEndpoint(ep, "anthropic"); err != nil {
		return nil, err
	}
	if ep.Key == "" {
		return nil, fmt.Errorf("the anthropic evaluator needs a key: set ANTHROPIC_API_KEY")
	}
	return &Anthropic{ep: ep}, nil
}

func (a *Anthropic) Name() string { return "anthropic:" + a.ep.Model }

const verdictTool = "record_verdicts"

type anthropicResponse struct {
	Model   string `json:"model"`
	Content []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

func (a *Anthropic) Complete(ctx context.Context, p Prompt) (Reply, error) {
	body := map[string]any{
		"model":      a.ep.Model,
		"max_tokens": p.MaxTokens,
		"system":     p.System,
		"messages":   []map[string]any{{"role": "user", "content": p.User}},
		"tools": []map[string]any{{
			"name":         verdictTool,
			"description":  "Record the verdict on each file.",
			"input_schema": p.Schema,
		}},
		"tool_choice": map[string]any{"type": "tool", "name": verdictTool},
	}
	header := http.Header{}
	header.Set("x-api-key", a.ep.Key)
	header.Set("anthropic-version", anthropicVersion)
	var resp anthropicResponse
	retries, err := a.ep.post(ctx, a.Name(), "/v1/messages", header, body, &resp, anthropicError)
	r := Reply{InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens, Retries: retries, Model: resp.Model}
	if err != nil {
		return r, err
	}
	switch resp.StopReason {
	case "max_tokens":
		return r, fmt.Errorf("%s: %w at %d tokens: raise the answer's tokens (hone's --model-answer-tokens, Config.AnswerTokens) or lower the batch (--model-batch, Config.Batch)", a.Name(), ErrTruncated, p.MaxTokens)
	case "refusal":
		return r, fmt.Errorf("%s: %w", a.Name(), ErrRefused)
	}
	for _, c := range resp.Content {
		if c.Type == "tool_use" && c.Name == verdictTool {
			r.Text = string(c.Input)
			return r, nil
		}
	}
	// No tool call: the answer's text, if it holds the JSON.
	for _, c := range resp.Content {
		if c.Type == "text" {
			r.Text += c.Text
		}
	}
	if r.Text == "" {
		return r, fmt.Errorf("%s: %w: the answer holds no verdicts", a.Name(), ErrMalformed)
	}
	return r, nil
}

// anthropicError reads an error body: {"type": "error", "error": {"type":
// …, "message": …}}.
func anthropicError(b []byte) string {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error.Message != "" {
		if e.Error.Type != "" {
			return e.Error.Type + ": " + e.Error.Message
		}
		return e.Error.Message
	}
	return string(b)
}
