package bench

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// CountTokens counts a text's tokens with the o200k tokenizer, or
// estimates them at four bytes a token if it cannot be loaded.
func CountTokens(s string) int {
	enc, err := o200k()
	if err != nil {
		return len(s) / 4
	}
	n, err := enc.Count(s)
	if err != nil {
		return len(s) / 4
	}
	return n
}
