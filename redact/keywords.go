package redact

// keywordScanner finds the rules' keywords in a text, ASCII letters of
// either case, in one pass: an Aho-Corasick automaton made a complete
// DFA over the bytes the keywords hold, so that each byte of the text
// costs one table read. A general trie follows failure links byte by byte
// and reads a 2 KB row a state; this table is a few dozen bytes a state.
type keywordScanner struct {
	class [256]uint8 // a byte's column; 0 for bytes no keyword holds
	cols  int
	next  []uint16  // the state after a byte: next[state*cols+class]
	ends  []bool    // whether a keyword ends at a state
	out   [][]int32 // the keywords that end at a state, by number
	lens  []int     // each keyword's length
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
	// The trie: child[state*cols+class], -1 where there is none.
	child := make([]int32, ks.cols)
	for i := range child {
		child[i] = -1
	}
	ks.out = [][]int32{nil}
	states := 1
	for n, k := range keywords {
		ks.lens[n] = len(k)
		s := int32(0)
		for i := 0; i < len(k); i++ {
			at := int(s)*ks.cols + int(ks.class[k[i]])
			if child[at] < 0 {
				child[at] = int32(states)
				states++
				for range ks.cols {
					child = append(child, -1)
				}
				ks.out = append(ks.out, nil)
			}
			s = child[at]
		}
		ks.out[s] = append(ks.out[s], int32(n))
	}
	if states > 1<<16 {
		panic("redact: too many keywords")
	}
	// Breadth first, each state's failure and its complete row.
	next := make([]int32, states*ks.cols)
	fail := make([]int32, states)
	queue := make([]int32, 0, states)
	for c := 1; c < ks.cols; c++ {
		if v := child[c]; v >= 0 {
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
			if v < 0 {
				next[row+c] = next[frow+c]
				continue
			}
			next[row+c] = v
			fail[v] = next[frow+c]
			ks.out[v] = append(ks.out[v], ks.out[fail[v]]...)
			queue = append(queue, v)
		}
	}
	ks.next = make([]uint16, len(next))
	for i, v := range next {
		ks.next[i] = uint16(v)
	}
	ks.ends = make([]bool, states)
	for s, o := range ks.out {
		ks.ends[s] = len(o) > 0
	}
	return ks
}

// scan calls fn for each keyword found in text, with its number and the
// offset where it starts, in order of where it ends.
func (ks *keywordScanner) scan(text string, fn func(keyword, start int)) {
	next, class, cols, ends := ks.next, &ks.class, ks.cols, ks.ends
	s := 0
	for i := 0; i < len(text); i++ {
		s = int(next[s*cols+int(class[text[i]])])
		if ends[s] {
			for _, k := range ks.out[s] {
				fn(int(k), i-ks.lens[k]+1)
			}
		}
	}
}
