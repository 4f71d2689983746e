//go:build cgo

package structure

/*
#include <stddef.h>

// From tree-sitter's api.h, linked in by github.com/tree-sitter/go-tree-sitter.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *)
);

static void hone_default_allocator(void) {
	ts_set_allocator(NULL, NULL, NULL, NULL);
}
*/
import "C"

import (
	_ "github.com/tree-sitter/go-tree-sitter" // runs its init first
)

// go-tree-sitter routes every allocation of the tree-sitter library through
// Go callbacks (for its SetAllocator), each a C-to-Go transition; that
// doubled the cost of parsing and freeing trees. Its default callbacks only
// call C's malloc and free, so the library's own defaults (the same malloc
// and free, called directly) are equivalent, and memory allocated before the
// switch is freed by the same free.
func init() {
	C.hone_default_allocator()
}
