package redact

// LongLine and NearKeyword let the tests read long lines whole.
var (
	LongLine    = &longLine
	NearKeyword = &nearKeyword
)
