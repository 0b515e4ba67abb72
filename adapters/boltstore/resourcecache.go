package boltstore

import (
	"slices"

	"github.com/costdb/costdb/adapters/internal/recordcache"
	"github.com/costdb/costdb/domain"
)

// A read transaction shares the resources it decodes with the read
// transactions before and after it: a resource whose stored bytes are
// exactly those decoded before is that value (recordcache), so a list page
// or a composition's own resources read again parse no JSON, no decimal
// and no time. The cache is exact whatever wrote the record (other bytes
// are decoded again). What a reader gets is still its own copy (app.Tx:
// records returned are copies): the struct, its map of prices and its tags
// are copied, the decimals are shared (a decimal.Decimal is never changed
// in place). A write transaction decodes afresh.

// resourceCacheMax is the raw bytes of resources the cache keeps: 8 MB,
// about 19,000 resources of two prices; with their decoded values and the
// map, about 5 times that in the heap (TestResourceCacheMemory bounds it).
const resourceCacheMax = 8 << 20

// readResource reads the resource with the id: from the store's cache of
// decoded resources when the transaction has one (a read transaction).
func (t *tx) readResource(id string) (*domain.Resource, error) {
	if t.resources == nil {
		return readRecord(t, bucketResources, []byte(id), (*resourceRecord).domain, "resource %s not found", id)
	}
	if err := t.readable(); err != nil {
		return nil, err
	}
	data := t.bucket(bucketResources).Get([]byte(id))
	if data == nil {
		return nil, notFound("resource %s not found", id)
	}
	r, err := recordcache.Decode(t.resources, id, data, func(b []byte) (*domain.Resource, error) {
		return decodeRecord(bucketResources, []byte(id), b, (*resourceRecord).domain)
	})
	if err != nil {
		return nil, err
	}
	return copyResource(r), nil
}

// copyResource returns a copy of r that shares nothing a caller can change
// with it: the struct, the map of prices and the tags are new.
func copyResource(r *domain.Resource) *domain.Resource {
	c := *r
	// A map of len entries, not maps.Clone: that copies the table as it
	// is, larger than a few prices need.
	c.Locals = make(map[string]domain.PriceLine, len(r.Locals))
	for st, p := range r.Locals {
		c.Locals[st] = p
	}
	c.Tags = slices.Clone(r.Tags)
	return &c
}
