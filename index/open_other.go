//go:build !unix

package index

import "os"

// openFlags open a file to index.
const openFlags = os.O_RDONLY

// isLink reports whether an open with openFlags failed because the path
// is a link: it follows links, so never.
func isLink(error) bool { return false }
