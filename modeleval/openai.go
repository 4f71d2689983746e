package modeleval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
)

// DefaultOpenAIURL is OpenAI's API root.
const DefaultOpenAIURL = "https://api.openai.com/v1"

// OpenAI speaks the chat completions API that OpenAI, Ollama, llama.cpp's
// server, vLLM, LM Studio and OpenRouter serve, asking for structured
// output by a JSON schema; a server that does not take a schema gets a
// plain JSON object asked for instead.
type OpenAI struct {
	ep Endpoint
	// noSchema: the server refused a JSON schema once; ask for a JSON
	// object from then on.
	noSchema atomic.Bool
}

// NewOpenAI makes a Chat over an OpenAI-compatible endpoint. The key may be
// empty for a local server.
func NewOpenAI(ep Endpoint) (*OpenAI, error) {
	if ep.BaseURL == "" {
		ep.BaseURL = DefaultOpenAIURL
	}
	if err := checkEndpoint(ep, "openai"); err != nil {
		return nil, err
	}
	return &OpenAI{ep: ep}, nil
}

func (o *OpenAI) Name() string { return "openai:" + o.ep.Model }

type openAIRequest struct {
	Model               string          `json:"model"`
	Messages            []openAIMessage `json:"messages"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	ResponseFormat      any             `json:"response_format,omitempty"`
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func (o *OpenAI) Complete(ctx context.Context, p Prompt) (Reply, error) {
	req := openAIRequest{
		Model:    o.ep.Model,
		Messages: []openAIMessage{{Role: "system", Content: p.System}, {Role: "user", Content: p.User}},
	}
	// In plain JSON mode the schema is not sent apart: the prompt gives it.
	withText := p.WithSchemaText().User
	// OpenAI's own API bounds the answer by max_completion_tokens, and its
	// reasoning models refuse max_tokens; the other servers know max_tokens.
	if isOpenAI(o.ep.BaseURL) {
		req.MaxCompletionTokens = p.MaxTokens
	} else {
		req.MaxTokens = p.MaxTokens
	}
	header := http.Header{}
	if o.ep.Key != "" {
		header.Set("Authorization", "Bearer "+o.ep.Key)
	}
	var resp openAIResponse
	retries := 0
	for {
		if o.noSchema.Load() {
			req.ResponseFormat = map[string]any{"type": "json_object"}
			req.Messages[1].Content = withText
		} else {
			req.ResponseFormat = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "verdicts", "strict": true, "schema": p.Schema}}
		}
		n, err := o.ep.post(ctx, o.Name(), "/chat/completions", header, req, &resp, openAIError)
		retries += n
		if err != nil {
			// A server that knows no JSON schema says so with a 400 that
			// names it: ask it once more for a JSON object.
			if !o.noSchema.Load() && strings.Contains(err.Error(), "HTTP 400") && mentionsFormat(err.Error()) {
				o.noSchema.Store(true)
				retries++
				continue
			}
			return Reply{Retries: retries}, err
		}
		break
	}
	r := Reply{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens, Retries: retries, Model: resp.Model}
	if len(resp.Choices) == 0 {
		return r, fmt.Errorf("%s: %w: the answer has no choices", o.Name(), ErrMalformed)
	}
	c := resp.Choices[0]
	if c.Message.Refusal != nil && *c.Message.Refusal != "" {
		return r, fmt.Errorf("%s: %w: %s", o.Name(), ErrRefused, oneLine(*c.Message.Refusal, 120))
	}
	switch c.FinishReason {
	case "length":
		return r, fmt.Errorf("%s: %w at %d tokens: raise the answer's tokens (hone's --model-answer-tokens, Config.AnswerTokens) or lower the batch (--model-batch, Config.Batch)", o.Name(), ErrTruncated, p.MaxTokens)
	case "content_filter":
		return r, fmt.Errorf("%s: %w: its content filter stopped the answer", o.Name(), ErrRefused)
	}
	if c.Message.Content == nil {
		return r, fmt.Errorf("%s: %w: the answer has no content", o.Name(), ErrMalformed)
	}
	r.Text = *c.Message.Content
	return r, nil
}

// openAIError reads an error body: {"error": {"message": …}}, or a plain
// text.
func openAIError(b []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return s
		}
	}
	return string(b)
}

func mentionsFormat(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "response_format") || strings.Contains(m, "json_schema") || strings.Contains(m, "schema")
}

func isOpenAI(base string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Hostname() == "api.openai.com"
}

// checkEndpoint says what to do when an endpoint is not set up.
func checkEndpoint(ep Endpoint, which string) error {
	if ep.Model == "" {
		return fmt.Errorf("the %s evaluator needs a model: give one (hone's --model NAME or HONE_MODEL, or Endpoint.Model)", which)
	}
	u, err := url.Parse(ep.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the %s evaluator's base URL %q is not an http(s) URL: give one such as http://localhost:11434/v1 (hone's --base-url, or Endpoint.BaseURL)", which, ep.BaseURL)
	}
	if u.User != nil {
		return errors.New("the base URL holds a user or password: give the key in the environment instead")
	}
	// A key read from the environment is often a hosted API's, set for
	// other tools: it crosses no network unencrypted. Plain http is for a
	// server on this machine, or one that needs no key.
	if ep.Key != "" && u.Scheme == "http" && !loopback(u.Hostname()) {
		return fmt.Errorf("the %s evaluator would send its key unencrypted to %s: give an https base URL (or http://localhost or 127.0.0.1 for a server on this machine), or unset the key for a server that needs none", which, u.Host)
	}
	return nil
}

// loopback reports whether a URL's host is this machine whatever the
// network says: the name localhost as written, or a loopback address
// (127.0.0.0/8, ::1). These two alone the HTTP client never sends to a
// proxy (HTTP_PROXY) and the resolver never asks the network's DNS
// server about; localhost. and names under .localhost may go to either.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
