// Package recordcache keeps records a store decoded, by the bytes they were
// decoded from: a record read again with exactly the same stored bytes is
// the value decoded before, so the cache is exact on any store and across
// servers whatever writes the record (a changed record has other bytes and
// is decoded again). It serves read-only transactions only: the values are
// shared between the readers that get them, which must not change them.
package recordcache

import (
	"bytes"
	"sync"
)

// Cache is a bounded cache of decoded records by key.
type Cache struct {
	mu    sync.Mutex
	m     map[string]entry
	bytes int // of the raw records kept
	max   int
}

type entry struct {
	raw []byte
	v   any
}

// DefaultMax is the raw bytes a store's cache keeps: 32 MB, a few times
// that decoded (a dense 5,000-line contract's 36 measurements are about
// 6 MB).
const DefaultMax = 32 << 20

// New returns a cache keeping at most max bytes of raw records (the
// decoded values take a few times that). When a record would not fit, the
// cache drops records (the first ones a map walk gives: any) until it is
// three quarters full with the new one: records read often stay through a
// few of those, rather than all of them going at once.
func New(max int) *Cache { return &Cache{m: map[string]entry{}, max: max} }

// Decode returns the value decoded from raw under key: the one kept when
// its bytes are raw's, else decode(raw), kept. A nil cache decodes.
func Decode[T any](c *Cache, key string, raw []byte, decode func([]byte) (*T, error)) (*T, error) {
	if c == nil {
		return decode(raw)
	}
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		if v, ok := e.v.(*T); ok {
			return v, nil
		}
	}
	v, err := decode(raw)
	if err != nil || len(raw) > c.max {
		return v, err
	}
	kept := bytes.Clone(raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok {
		c.bytes -= len(old.raw)
	}
	if c.bytes+len(kept) > c.max {
		c.shrink(c.max/4*3 - len(kept))
	}
	c.m[key] = entry{raw: kept, v: v}
	c.bytes += len(kept)
	return v, nil
}

// shrink drops records until the cache holds at most to bytes of them.
func (c *Cache) shrink(to int) {
	for k, e := range c.m {
		if c.bytes <= to {
			return
		}
		delete(c.m, k)
		c.bytes -= len(e.raw)
	}
}

// Len returns the number of records the cache keeps.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Bytes returns the raw bytes of the records the cache keeps.
func (c *Cache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
