package httpapi

import (
	"context"
	"time"
)

// ExportLimit caps how many heavy exports (the XLSX and PDF documents of
// the reports) one server computes at once: each holds a slot while its
// report is computed and written. A request that finds every slot taken
// waits up to Wait (or until its client goes away) for one, and is
// otherwise answered 503 with Retry-After (ExportRetryAfter). The JSON and
// CSV reports are not limited: they stream in a memory bounded per
// request, within the time of an ordinary read.
type ExportLimit struct {
	slots chan struct{}
	// Wait is how long a request waits for a slot.
	Wait time.Duration
}

// ExportWait is how long an export waits for a slot by default.
const ExportWait = 2 * time.Second

// ExportRetryAfter is the Retry-After, in seconds, of an export refused
// for want of a slot.
const ExportRetryAfter = 5

// NewExportLimit returns a limit of n exports at once (at least 1) that
// waits up to ExportWait for a slot.
func NewExportLimit(n int) *ExportLimit {
	return &ExportLimit{slots: make(chan struct{}, max(n, 1)), Wait: ExportWait}
}

// Acquire takes a slot, waiting up to Wait or until ctx is done; it
// returns the function that gives the slot back, or false when no slot
// came. A nil limit lets every export through.
func (l *ExportLimit) Acquire(ctx context.Context) (release func(), ok bool) {
	if l == nil {
		return func() {}, true
	}
	free := func() { <-l.slots }
	select {
	case l.slots <- struct{}{}:
		return free, true
	default:
	}
	t := time.NewTimer(l.Wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return free, true
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, false
}
