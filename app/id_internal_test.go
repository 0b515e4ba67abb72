package app

import (
	"testing"
	"time"
)

// TestNewIDCounterWrap checks that IDs keep increasing when the 3-byte
// counter wraps within one second: the ID moves on to the next second.
func TestNewIDCounterWrap(t *testing.T) {
	now := time.Now()
	first := NewID(now)
	idGen.Lock()
	if idGen.counter < 0xfffffe {
		idGen.counter = 0xfffffe
	}
	idGen.Unlock()
	prev := first
	for i := 0; i < 4; i++ {
		id := NewID(now)
		if id <= prev {
			t.Fatalf("id %d %q after %q: not increasing across the counter wrap", i, id, prev)
		}
		prev = id
	}
	if prev[:8] == first[:8] {
		t.Errorf("id %q after the wrap keeps the second of %q", prev, first)
	}
}
