package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/redact"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits on what a tool takes. The task shares the command line's limit.
const (
	maxTaskBytes  = hone.MaxTaskBytes
	maxQueryBytes = 16 << 10
	maxPathBytes  = 4096
	maxGlobs      = 100
	maxGlobBytes  = 1024
	// maxEcho bounds the user input an error of hone's repeats; with the
	// rest of the message it stays under maxErrorBytes.
	maxEcho = 160
)

// cut shortens text to at most maxEcho bytes, on a character boundary,
// marking the cut with "…".
func cut(s string) string { return cutTo(s, maxEcho) }

// cutTo shortens text to at most limit bytes, on a character boundary,
// marking the cut with "…".
func cutTo(s string, limit int) string { return redact.Cut(s, limit) }

// quote quotes user input for an error message, cut to maxEcho bytes.
func quote(s string) string { return strconv.Quote(cut(s)) }

// checkLen refuses a text argument over its limit, without repeating it.
func checkLen(name, s string, limit int) error {
	if len(s) > limit {
		return fmt.Errorf("%s is %d bytes long, over the %d bytes it may have: shorten it", name, len(s), limit)
	}
	return nil
}

// notNegative refuses a count below 0, which no default stands for: 0
// or leaving it out takes the default.
func notNegative(name string, v int) error {
	if v < 0 {
		return fmt.Errorf("%s must be 0 or more (0 or none: the default), not %d", name, v)
	}
	return nil
}

// checkGlobs refuses more globs, or longer ones, than a search needs.
func checkGlobs(name string, globs []string) error {
	if len(globs) > maxGlobs {
		return fmt.Errorf("%s has %d globs, over the %d it may have: merge them, e.g. src/{a,b}/**", name, len(globs), maxGlobs)
	}
	for i, g := range globs {
		if len(g) > maxGlobBytes {
			return fmt.Errorf("%s glob %d is %d bytes long, over the %d bytes a glob may have: shorten it", name, i+1, len(g), maxGlobBytes)
		}
		if g == "" {
			return fmt.Errorf("%s glob %d is empty, which matches no file: leave it out", name, i+1)
		}
		if !hone.ValidGlob(g) {
			return fmt.Errorf("bad glob %s in %s: check its brackets and braces", quote(g), name)
		}
	}
	return nil
}

// maxErrorBytes bounds an error's text: the SDK's own errors (a schema
// check) repeat the argument that failed, whatever its size, after some
// 80 bytes of their own; cut here, they repeat under 200 bytes of it.
const maxErrorBytes = 260

// cutErrors keeps every error a client gets short, whoever wrote it: a
// tool's error result, or a JSON-RPC error, with its code kept (and
// redacted: safeError).
func cutErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			err = safeError(err)
		}
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			for _, c := range r.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					t.Text = cutTo(argumentError(t.Text), maxErrorBytes)
				}
			}
		}
		return res, err
	}
}

// safeError is err's message cut to maxErrorBytes and redacted, its code
// kept.
func safeError(err error) error {
	msg, n := redact.String(err.Error())
	// A protocol error's data may quote what the client sent (the URI of
	// a resource it asked for): redacted as the message is.
	we := (*jsonrpc.Error)(nil)
	isRPC := errors.As(err, &we)
	var data json.RawMessage
	if isRPC && len(we.Data) > 0 {
		// Its strings redacted as values, not as JSON's text, whose
		// escapes would hide a secret from the rules.
		var v any
		if json.Unmarshal(we.Data, &v) == nil {
			if dn := redact.Value(&v); dn > 0 {
				if b, err := json.Marshal(v); err == nil {
					data, n = b, n+dn
				}
			} else {
				data = we.Data
			}
		} else {
			d, dn := redact.String(string(we.Data))
			data, n = json.RawMessage(d), n+dn
		}
	}
	if n == 0 && len(msg) <= maxErrorBytes {
		return err
	}
	msg = cutTo(msg, maxErrorBytes)
	if isRPC {
		return &jsonrpc.Error{Code: we.Code, Message: msg, Data: data}
	}
	return errors.New(msg)
}

// decodeFailed matches Go's message for an argument JSON could not put in
// its field: a number past the field's type, a fraction for a count.
var decodeFailed = lazyre.New(`^json: cannot unmarshal .* into Go struct field [\w.]*\.(\w+) of type (\w+)`)

// The schema validator's messages, and Go's, that argumentError says
// again in the terms of the tool's arguments:
var (
	// an argument of the wrong JSON type: its name, its type and the
	// type, or the types, it must have;
	wrongType = lazyre.New(`(?s)validating /properties/(\w+): type: .* has type "(\w+)", want (?:one of )?"([\w, ]+)"$`)
	// arguments the tool needs, left out;
	missingArgs = lazyre.New(`required: missing properties: \[(.*)\]$`)
	// arguments the tool has not;
	unknownArgs = lazyre.New(`unexpected additional properties \[(.*)\]$`)
	// a number out of its argument's range: its name, which end, the
	// number as given and the bound;
	outOfRange = lazyre.New(`validating /properties/(\w+): (minimum|maximum): (\S+) is (?:less|greater) than (\S+)$`)
	// a name in a validator's list, quoted as JSON quotes it;
	quotedName = lazyre.New(`"(?:[^"\\]|\\.)*"`)
	// arguments that are not a JSON object of named values: Go names
	// the value's type, or quotes the value.
	notObject = lazyre.New(`json: cannot unmarshal (.+) into Go value of type map\[string\]`)
)

// quotedNames are the names of a validator's list, ["b" "a"], as a
// person writes them, in order and quoted: "a" and "b", each cut to
// maxEcho bytes (a name may hold anything: a control character, nothing);
// and how many.
func quotedNames(list string) (string, int) {
	var names []string
	for _, q := range quotedName().FindAllString(list, -1) {
		if s, err := strconv.Unquote(q); err == nil {
			names = append(names, s)
		}
	}
	// The validator lists them in a map's order.
	slices.Sort(names)
	for i, n := range names {
		names[i] = quote(n)
	}
	switch len(names) {
	case 0:
		return quote(list), 1
	case 1:
		return names[0], 1
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1], len(names)
}

// jsonType is a JSON type as a person says it.
func jsonType(t string) string {
	switch t {
	case "integer":
		return "a whole number"
	case "number":
		return "a number"
	case "string":
		return "a string"
	case "boolean":
		return "true or false"
	case "array":
		return "an array"
	case "object":
		return "an object"
	case "null":
		return "null"
	}
	return t
}

// valueType is the JSON type of a value Go's message names: by its
// type's name, or quoted.
func valueType(s string) string {
	if v, err := strconv.Unquote(s); err == nil {
		switch {
		case strings.HasPrefix(v, `"`):
			return "a string"
		case strings.HasPrefix(v, "["):
			return "an array"
		case v == "true" || v == "false":
			return "true or false"
		case v == "null":
			return "null"
		case v != "":
			return "a number"
		}
	}
	return jsonType(s)
}

// maxIntArgument is the largest whole number a tool's argument may be:
// the largest 64-bit float below 2^63, as JSON's numbers reach the tools
// as floats.
const maxIntArgument = 1<<63 - 1<<10

// argumentError says, for an argument that does not fit its field, which
// argument and what it takes, rather than Go's own message; other errors
// are as they are.
func argumentError(msg string) string {
	if m := wrongType().FindStringSubmatch(msg); m != nil {
		// The schema's message repeats the value before what it wants:
		// a long value, cut, would leave out what to give. An optional
		// argument may be null too, which no one means to give.
		var want []string
		for _, t := range strings.Split(m[3], ", ") {
			if t != "null" {
				want = append(want, jsonType(t))
			}
		}
		has := jsonType(m[2])
		if m[2] == "number" && slices.Contains(want, "a whole number") {
			has = "a fraction"
		}
		return fmt.Sprintf("%s must be %s, not %s: give another value, or leave it out if it may be", m[1], strings.Join(want, " or "), has)
	}
	if m := outOfRange().FindStringSubmatch(msg); m != nil {
		end := "at least"
		if m[2] == "maximum" {
			end = "at most"
		}
		limit, _ := strconv.ParseFloat(m[4], 64)
		// The validator writes the number as a fraction (-3/1).
		given := cut(m[3])
		if r, ok := new(big.Rat).SetString(m[3]); ok {
			f, _ := r.Float64()
			given = strconv.FormatFloat(f, 'g', -1, 64)
		}
		return fmt.Sprintf("%s must be %s %g, not %s: give another value, or leave it out for the default", m[1], end, limit, given)
	}
	if m := missingArgs().FindStringSubmatch(msg); m != nil {
		names, n := quotedNames(m[1])
		if n > 1 {
			return fmt.Sprintf("%s are needed: give them (tools/list describes each argument)", names)
		}
		return fmt.Sprintf("%s is needed: give it (tools/list describes each argument)", names)
	}
	if m := unknownArgs().FindStringSubmatch(msg); m != nil {
		names, _ := quotedNames(m[1])
		return fmt.Sprintf("%s: no such argument of this tool; tools/list names its arguments", names)
	}
	if m := notObject().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("the arguments must be a JSON object of named values, not %s: e.g. {\"task\": \"...\"}", valueType(m[1]))
	}
	m := decodeFailed().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	what := "a value of type " + m[2]
	if strings.HasPrefix(m[2], "int") || strings.HasPrefix(m[2], "uint") {
		// JSON's numbers reach the tools as 64-bit floats: 2^63-1 arrives
		// as 2^63, past an int64, and the largest that fits is the
		// largest float below it.
		what = fmt.Sprintf("a whole number from %d to %d", math.MinInt64, maxIntArgument)
	}
	return fmt.Sprintf("%s must be %s: give another value (tools/list gives its range; an optional one may be left out for its default)", m[1], what)
}
