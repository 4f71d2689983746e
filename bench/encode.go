package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/hone-tools/hone/redact"
)

// An Encoder writes values as JSON lines, as json.Encoder does, with
// every string in them, a map's keys included, passed through the
// redaction first: a benchmark's rows, signals and dumps hold paths, task
// texts and errors, and what hone writes passes the redaction. The values
// themselves are left as they were.
type Encoder struct{ enc *json.Encoder }

// NewEncoder returns an Encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{enc: json.NewEncoder(w)} }

// Encode writes v's JSON, redacted, and a newline. A nil Encoder writes
// nothing, at no cost.
func (e *Encoder) Encode(v any) error {
	if e == nil {
		return nil
	}
	c, err := redactedCopy(v)
	if err != nil {
		return err
	}
	return e.enc.Encode(c)
}

// redactedCopy returns a copy of v, made by its JSON, whose strings have
// passed the redaction (redact.Value): v and what it points to, shared
// with the caller, are not changed.
func redactedCopy(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	c := reflect.New(reflect.TypeOf(v))
	if err := json.Unmarshal(b, c.Interface()); err != nil {
		return nil, fmt.Errorf("copy %T for the redaction: %w", v, err)
	}
	redact.Value(c.Interface())
	return c.Interface(), nil
}
