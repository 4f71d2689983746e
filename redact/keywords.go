package redact

// keywordScanner finds the rules' keywords in a text, ASCII letters of
// either case, in one pass: an Aho-Corasick automaton made a complete
// DFA over the bytes the keywords hold, so that each byte of the text
// costs one table read. A general trie follows failure links byte by byte
// and reads a 2 KB row a state; this table is a few dozen bytes a state.
type keywordScanner struct {
	class [256]uint8 // a byte's column; 0 for bytes no keyword holds
	cols  int
	// next is the state after a byte, next[state*cols+class], written as
	// the state's row, state*cols, shifted left once, its lowest bit set
	// where a keyword ends at it: a byte costs two table reads, not three
	// and a multiplication.
	next []uint32
	out  [][]int32 // the keywords that end at a state, by number
	lens []int     // each keyword's length
}

// newKeywordScanner builds the scanner of keywords, which are lower-case:
// an upper-case ASCII letter of a text reads as its lower case.
func newKeywordScanner(keywords []string) *keywordScanner {
	ks := &keywordScanner{cols: 1, lens: make([]int, len(keywords))}
	for _, k := range keywords {
		for i := 0; i < len(k); i++ {
			if c := k[i]; ks.class[c] == 0 {
				ks.class[c] = uint8(ks.cols)
				ks.cols++
				if ks.cols > 255 {
					panic("redact: too many distinct bytes in the keywords")
				}
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		ks.class[c] = ks.class[c+'a'-'A']
	}
	// The trie: child[state*cols+class], none where there is none. It
	// is sized for every byte of the keywords, the most states there can
	// be, so that it grows by no copies.
	const none = 0xffff
	most := 1
	for _, k := range keywords {
		most += len(k)
	}
	child := make([]uint16, ks.cols, min(most, none)*ks.cols)
	for i := range child {
		child[i] = none
	}
	ks.out = [][]int32{nil}
	states := 1
	for n, k := range keywords {
		ks.lens[n] = len(k)
		s := uint16(0)
		for i := 0; i < len(k); i++ {
			at := int(s)*ks.cols + int(ks.class[k[i]])
			if child[at] == none {
				if states == none {
					panic("redact: too many keywords")
				}
				child[at] = uint16(states)
				states++
				for range ks.cols {
					child = append(child, none)
				}
				ks.out = append(ks.out, nil)
			}
			s = child[at]
		}
		ks.out[s] = append(ks.out[s], int32(n))
	}
	// Breadth first, each state's failure and its complete row.
	next := make([]uint16, states*ks.cols)
	fail := make([]uint16, states)
	queue := make([]uint16, 0, states)
	for c := 1; c < ks.cols; c++ {
		if v := child[c]; v != none {
			next[c] = v
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		row := int(u) * ks.cols
		frow := int(fail[u]) * ks.cols
		for c := 1; c < ks.cols; c++ {
			v := child[row+c]
			if v == none {
				next[row+c] = next[frow+c]
				continue
			}
			next[row+c] = v
			fail[v] = next[frow+c]
			ks.out[v] = append(ks.out[v], ks.out[fail[v]]...)
			queue = append(queue, v)
		}
	}
	ks.next = make([]uint32, len(next))
	for i, v := range next {
		ks.next[i] = uint32(v) * uint32(ks.cols) << 1
		if len(ks.out[v]) > 0 {
			ks.next[i] |= 1
		}
	}
	return ks
}

// scan calls fn for each keyword found in text, with its number and the
// offset where it starts, in order of where it ends.
func (ks *keywordScanner) scan(text string, fn func(keyword, start int)) {
	next, class, cols := ks.next, &ks.class, uint32(ks.cols)
	row := uint32(0)
	for i := 0; i < len(text); i++ {
		v := next[row+uint32(class[text[i]])]
		row = v >> 1
		if v&1 != 0 {
			for _, k := range ks.out[row/cols] {
				fn(int(k), i-ks.lens[k]+1)
			}
		}
	}
}
