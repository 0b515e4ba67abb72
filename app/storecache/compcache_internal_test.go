package storecache

import (
	"strconv"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestCompositionCacheBytes: the cache holds at most its byte budget,
// whatever the compositions' sizes: many large compositions make it start
// over sooner than small ones, and one too large for it is not kept.
func TestCompositionCacheBytes(t *testing.T) {
	comp := func(items int) *domain.Composition {
		c := &domain.Composition{Code: "C", Description: "Alvenaria"}
		for i := range items {
			c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: strconv.Itoa(i), Quantity: decimal.NewFromInt(1)})
		}
		return c
	}
	cc := newCompositionCache()
	small, large := comp(20), comp(2000)
	for i := range 5000 {
		cc.put("s"+strconv.Itoa(i), []byte("stamp"), small)
		if cc.bytes > maxCompositionCacheBytes {
			t.Fatalf("after %d small: %d bytes kept, budget %d", i+1, cc.bytes, maxCompositionCacheBytes)
		}
	}
	smallKept := len(cc.m)
	for i := range 500 {
		cc.put("l"+strconv.Itoa(i), []byte("stamp"), large)
		if cc.bytes > maxCompositionCacheBytes {
			t.Fatalf("after %d large: %d bytes kept, budget %d", i+1, cc.bytes, maxCompositionCacheBytes)
		}
	}
	if largeKept := len(cc.m); largeKept*10 > smallKept || largeKept == 0 {
		t.Errorf("kept %d small and %d large compositions: the budget is in bytes, not entries", smallKept, largeKept)
	}
	if got := cc.get("l499", []byte("stamp")); got == nil || len(got.Items) != 2000 {
		t.Errorf("the last large one is not kept")
	}
	// Replacing an entry counts its size once.
	before := cc.bytes
	cc.put("l499", []byte("stamp"), large)
	if cc.bytes != before {
		t.Errorf("replacing an entry: %d bytes, was %d", cc.bytes, before)
	}
	huge := comp(maxCompositionCacheBytes / 4 / 160)
	cc.put("huge", []byte("stamp"), huge)
	if cc.get("huge", []byte("stamp")) != nil {
		t.Errorf("a composition over a quarter of the budget was kept")
	}
}
