package main

import (
	"io"

	"github.com/hone-tools/hone/redact"
)

// writeRedacted writes output that holds file contents or commit text:
// whatever hone prints has passed the redaction, and no control character
// reaches the terminal.
func writeRedacted(w io.Writer, text string) error {
	text, _ = redact.String(text)
	text, _ = redact.CleanText(text)
	_, err := io.WriteString(w, text)
	return err
}
