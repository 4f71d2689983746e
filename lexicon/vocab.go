package lexicon

import (
	_ "embed" // the vocabulary table
	"strconv"
	"strings"
)

// vocabData is the general vocabulary learned from public code by
// "hone bench vocab" (see bench/vocab/README.md): a header of '#' lines,
// then word<TAB>term weight term weight ... lines sorted bytewise by word.
// It is searched as it is; nothing is parsed at start-up.
//
//go:embed vocab_data.txt
var vocabData string

// Assoc is a code term a task word points to, with its weight in (0,1].
type Assoc struct {
	Term   string
	Weight float64
}

// Associated returns the code terms a task word points to in general
// software vocabulary, learned from public code (which identifier parts go
// with which words in documentation and commit messages): "overload" points
// to shed, "failure" to maxfail. The word and the terms are tokenize stems
// ("retri" for retry); the word itself is never among its terms. Terms come
// by weight, highest first. Associated returns nil for an unknown word. The
// caller owns the returned slice.
func Associated(word string) []Assoc {
	rest, ok := vocabLine(vocabData, word)
	if !ok {
		return nil
	}
	var out []Assoc
	for rest != "" {
		var term, weight string
		term, rest, _ = strings.Cut(rest, " ")
		weight, rest, _ = strings.Cut(rest, " ")
		w, err := strconv.ParseFloat(weight, 64)
		if term == "" || err != nil {
			continue
		}
		out = append(out, Assoc{Term: term, Weight: w})
	}
	return out
}

// vocabLine finds word's line in data by binary search over its lines and
// returns what follows the tab.
func vocabLine(data, word string) (string, bool) {
	if word == "" || strings.ContainsAny(word, "\t\n") {
		return "", false
	}
	lo := 0
	for lo < len(data) && data[lo] == '#' { // the header
		nl := strings.IndexByte(data[lo:], '\n')
		if nl < 0 {
			return "", false
		}
		lo += nl + 1
	}
	// lo and hi are always at the start of a line (hi may be len(data)).
	hi := len(data)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := lo + strings.LastIndexByte(data[lo:mid], '\n') + 1
		end := strings.IndexByte(data[start:hi], '\n')
		if end < 0 {
			end = hi
		} else {
			end += start
		}
		w, rest, _ := strings.Cut(data[start:end], "\t")
		switch c := strings.Compare(w, word); {
		case c == 0:
			return rest, true
		case c < 0:
			lo = end + 1
		default:
			hi = start
		}
	}
	return "", false
}
