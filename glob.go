package hone

// ValidGlob reports whether pat is a glob that Options.Include and
// Options.Exclude take, in doublestar's grammar (** for any folders):
// every escape escapes something, every character class is closed and not
// empty, and braces balance. An empty pattern, which matches no file, is
// none.
func ValidGlob(pat string) bool { return pat != "" && validGlob(pat) }

// validGlob reports whether a pattern of Options.Include or
// Options.Exclude is well formed: every escape escapes something, every
// character class is closed and not empty, and braces balance. It is the
// grammar of doublestar, which the search matches with; a test in package
// retrieve holds the two to the same answers.
func validGlob(pat string) bool {
	depth := 0
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
			if i >= len(pat) {
				return false
			}
		case '[':
			i++
			if i < len(pat) && (pat[i] == '^' || pat[i] == '!') {
				i++
			}
			if i >= len(pat) || pat[i] == ']' {
				return false
			}
			closed := false
			for ; i < len(pat); i++ {
				if pat[i] == '\\' {
					i++
				} else if pat[i] == ']' {
					closed = true
					break
				}
			}
			if !closed {
				return false
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return false
			}
			depth--
		}
	}
	return depth == 0
}
