package tokenize

// IsStopWord reports whether a lower-case word carries no topic: an English
// function word ("the", "of", "is", ...) or a ubiquitous programming
// keyword or literal ("func", "def", "return", "var", "import", "self",
// "true", "null", "if", "else", "public", "void", ...).
//
// Words that do carry meaning in a task are deliberately not stop words,
// even when they are keywords somewhere: class, type, interface, struct,
// enum, async, await, try, catch, throw, raise, assert, yield, default,
// switch, break, continue, string, int, float, bool, list, map, error.
func IsStopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}

// IsNameWord reports whether a lower-case stop word names a topic where it
// names a file or a definition: import, include and export, which code
// writes everywhere as keywords and a task writes of imports, inclusions
// and exports (a function importLines, a web framework's include(), a file
// export.ts). The index keeps them in a file's name and its definitions'
// names, never in its text, and a task's words keep them, so that they
// match only names.
func IsNameWord(w string) bool {
	switch w {
	case "import", "include", "export":
		return true
	}
	return false
}

var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{}, len(stopList))
	for _, w := range stopList {
		m[w] = struct{}{}
	}
	return m
}()

var stopList = [...]string{
	// English function words.
	"a", "about", "above", "after", "again", "against", "all", "also", "am",
	"an", "and", "any", "are", "aren", "as", "at", "be", "because", "been",
	"before", "being", "below", "between", "both", "but", "by", "can",
	"cannot", "could", "couldn", "did", "didn", "do", "does", "doesn",
	"doing", "don", "down", "during", "each", "either", "etc", "even",
	"ever", "every", "few", "for", "from", "further", "had", "hadn", "has",
	"hasn", "have", "haven", "having", "he", "her", "here", "hers",
	"herself", "him", "himself", "his", "how", "however", "i", "ie", "eg",
	"if", "in", "into", "is", "isn", "it", "its", "itself", "just", "let",
	"ll", "may", "me", "might", "more", "most", "much", "must", "mustn",
	"my", "myself", "neither", "no", "nor", "not", "now", "of", "off", "on",
	"once", "only", "or", "other", "otherwise", "ought", "our", "ours",
	"ourselves", "out", "over", "own", "per", "please", "re", "same",
	"shall", "shan", "she", "should", "shouldn", "since", "so", "some",
	"such", "than", "that", "the", "their", "theirs", "them", "themselves",
	"then", "there", "these", "they", "this", "those", "though", "through",
	"thus", "to", "too", "under", "until", "up", "upon", "us", "ve", "very",
	"via", "was", "wasn", "we", "were", "weren", "what", "when", "where",
	"whether", "which", "while", "who", "whom", "whose", "why", "will",
	"with", "within", "without", "won", "would", "wouldn", "yet", "you",
	"your", "yours", "yourself", "yourselves",
	// Keywords, literals and boilerplate common to many languages.
	"def", "elif", "else", "endif", "export", "fn", "func",
	"function", "impl", "import", "include", "let", "mut", "new", "nil",
	"none", "null", "package", "private", "protected", "pub", "public",
	"return", "returns", "self", "static", "super", "true", "false",
	"undefined", "var", "void", "const", "final", "fi", "todo", "fixme",
	"xxx", "www", "com", "org",
}
