package retrieve_test

import (
	"context"
	"fmt"
	"log"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
)

// Retrieve runs the loop and returns the files at or above the threshold,
// best first, with the trace of every cycle.
func ExampleRetrieve() {
	res, err := retrieve.Retrieve(context.Background(), "../testdata/repos/auth-expiry",
		"fix the auth token expiry bug", hone.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %s, found in cycle %d\n", f.Path, f.Role, f.Cycle)
	}
	fmt.Println("stopped:", res.StopReason)
	// Output:
	// src/auth/tokens.ts: target, found in cycle 1
	// src/auth/auth.ts: context, found in cycle 1
	// stopped: max_cycles
}
