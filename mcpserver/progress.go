package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery spaces a call's progress notifications: a first index
// reports thousands of files a second, and a client needs a few lines.
var progressEvery = 250 * time.Millisecond

// progressOf returns what tells the client how the call's index update
// goes, as MCP's progress notifications under the token the call gave
// (its _meta.progressToken): a first index of a large repository takes
// minutes, and a client that hears nothing may give the call up. It is
// nil when the call gave no token. Notifications are spaced by
// progressEvery, the last file's always sent; their progress only grows,
// across an update and the rebuild that may follow it; none is sent once
// the call has ended.
func progressOf(ctx context.Context, req *mcp.CallToolRequest) func(index.Progress) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	ss := req.Session
	var (
		mu     sync.Mutex
		base   int            // files reported by the updates before this one
		last   index.Progress // the last report (Done 0 before the first)
		sent   float64        // the progress last sent
		sentAt time.Time
	)
	return func(p index.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Done < last.Done {
			// A new update (a rebuild after a damaged index): its files
			// count on from the last one's.
			base += last.Total
		}
		last = p
		done := float64(base + p.Done)
		if done <= sent || ctx.Err() != nil {
			return
		}
		final := p.Done >= p.Total
		if !final && time.Since(sentAt) < progressEvery {
			return
		}
		msg := fmt.Sprintf("indexing the repository: %d of %d files read (%s)", p.Done, p.Total, megabytes(p.Bytes))
		msg, _ = redact.String(msg)
		// A client gone or slow loses a line of progress, not the call.
		_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      done,
			Total:         float64(base + p.Total),
			Message:       msg,
		})
		sent, sentAt = done, time.Now()
	}
}

// megabytes writes a count of bytes for a person, in the units the
// command's progress bar uses: 3.2 MB of 2^20 bytes.
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
