package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/hone-tools/hone/redact"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// redactResults passes every tool's answer through the redaction before it
// is sent: the text a model reads, the structured result, and errors.
// Tools redact what they know to be file contents themselves (with the
// file's path, for the rules that hold only in some files); this is the
// net under all of them.
func redactResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if ctr, ok := res.(*mcp.CallToolResult); ok && ctr != nil {
			redactToolResult(ctr)
		}
		return res, err
	}
}

func redactToolResult(res *mcp.CallToolResult) {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			t.Text, _ = redact.String(t.Text)
			t.Text, _ = redact.CleanText(t.Text)
		}
	}
	switch sc := res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		var v any
		if json.Unmarshal(sc, &v) != nil {
			res.StructuredContent = nil // never send what could not be checked
			return
		}
		if redact.Value(&v) > 0 {
			if b, err := json.Marshal(v); err == nil {
				res.StructuredContent = json.RawMessage(b)
			} else {
				res.StructuredContent = nil
			}
		}
	default:
		redact.Value(&sc)
		res.StructuredContent = sc
	}
}
