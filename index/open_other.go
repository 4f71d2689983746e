//go:build !unix

package index

import "os"

// openFlags open a file to index.
const openFlags = os.O_RDONLY
