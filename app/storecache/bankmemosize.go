package storecache

import "github.com/costdb/costdb/domain"

// maxBankMemoBytes bounds the bank memo by the estimated size of the
// decoded records it keeps (bankResourceBytes, bankCompositionBytes), not
// by their number: a SINAPI state's edition, some 5,000 resources and
// 8,000 compositions with their structures, is about 15 MB decoded, so the
// memo keeps the editions a server prices with at once (a few states and
// months) while a bank of compositions with thousands of items each cannot
// make it hold more memory than one of small ones. When an entry would take
// it past the bound it starts over (docs/operations.md, "Memory").
const maxBankMemoBytes = 64 << 20

// The estimates count, on a 64-bit platform, what an entry keeps: its map
// slot and key, the record's struct, each decimal's big.Int and word, and
// the strings' bytes. They were checked against the heap a decoded record
// takes (docs/performance.md, "Memory: the serving process, the 1M-row import, the caches' bounds"): within 25%.
const (
	memoSlotBytes       = 96  // the map slot: key, entry, the table's slack
	decimalBytes        = 48  // a decoded decimal's big.Int and its word
	stringBytes         = 8   // a string's allocation rounding, on average
	resourceStruct      = 176 // domain.BankResource, in its size class
	compositionStruct   = 144 // domain.BankComposition, in its size class
	structureItemStruct = 48  // a domain.StructureItem in the items' array
)

// bankResourceBytes estimates the memory of a memo entry for r (nil: a
// not-found answer) under k.
func bankResourceBytes(k bankKey, r *domain.BankResource) int {
	n := memoSlotBytes + len(k.edition) + len(k.code) + 2*stringBytes
	if r == nil {
		return n
	}
	n += resourceStruct + 5*decimalBytes + 8*len(r.Regimes)
	n += len(r.Code) + len(r.Description) + len(r.Unit) + 3*stringBytes
	return n
}

// bankCompositionBytes estimates the memory of a memo entry for c (nil: a
// not-found answer) under k.
func bankCompositionBytes(k bankKey, c *domain.BankComposition) int {
	n := memoSlotBytes + len(k.edition) + len(k.code) + 2*stringBytes
	if c == nil {
		return n
	}
	n += compositionStruct + 2*decimalBytes + 8*len(c.Regimes)
	n += len(c.Code) + len(c.Description) + len(c.Unit) + len(c.Class) + 4*stringBytes
	for _, it := range c.Items {
		n += structureItemStruct + decimalBytes + len(it.Code) + stringBytes
	}
	return n
}
