package recordcache

import (
	"fmt"
	"testing"
)

// TestShrink: a full cache drops records until it is three quarters full
// with the new one, not all of them; its bytes never pass its bound; and
// what it keeps is what it was given.
func TestShrink(t *testing.T) {
	c := New(1000)
	decode := func(b []byte) (*string, error) { s := string(b); return &s, nil }
	for i := range 500 {
		raw := fmt.Appendf(nil, "record %03d", i) // 10 bytes
		v, err := Decode(c, fmt.Sprint(i), raw, decode)
		if err != nil || *v != string(raw) {
			t.Fatalf("record %d: %v %v", i, v, err)
		}
		total := 0
		for _, e := range c.m {
			total += len(e.raw)
		}
		if total != c.bytes || c.bytes > 1000 {
			t.Fatalf("after %d records: %d bytes counted, %d held, bound 1000", i+1, c.bytes, total)
		}
		if i >= 100 && len(c.m) < 70 {
			t.Fatalf("after %d records: %d kept, want at least 70 (three quarters)", i+1, len(c.m))
		}
	}
	for k, e := range c.m {
		var i int
		fmt.Sscan(k, &i)
		if want := fmt.Sprintf("record %03d", i); *e.v.(*string) != want || string(e.raw) != want {
			t.Fatalf("key %s holds %q from %q", k, *e.v.(*string), e.raw)
		}
	}
}
