//go:build !unix

package walk

import "os"

const nonBlocking = os.O_RDONLY
