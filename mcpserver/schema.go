package mcpserver

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// bound is the range of a count argument: from min, to max unless max is
// 0 (no bound above).
type bound struct{ min, max float64 }

// boundedSchema is the input schema the SDK would infer for T, with the
// ranges of its count arguments said in it, so that a model sees them in
// tools/list and the SDK refuses a value out of range before the tool
// runs (argumentError says it again in the argument's terms). nil, for
// the SDK to infer the schema itself, should T have none.
func boundedSchema[T any](bounds map[string]bound) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil
	}
	for name, b := range bounds {
		p := s.Properties[name]
		if p == nil {
			continue // a test holds every name to a property
		}
		p.Minimum = &b.min
		if b.max != 0 {
			p.Maximum = &b.max
		}
	}
	return s
}
