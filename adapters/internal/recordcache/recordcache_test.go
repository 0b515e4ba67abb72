package recordcache_test

import (
	"encoding/json"
	"testing"

	"github.com/costdb/costdb/adapters/internal/recordcache"
)

type rec struct{ N int }

// TestDecode: the same bytes give the value decoded before; other bytes
// under the key are decoded again; a full cache starts over.
func TestDecode(t *testing.T) {
	c := recordcache.New(20)
	decodes := 0
	decode := func(b []byte) (*rec, error) {
		decodes++
		var r rec
		err := json.Unmarshal(b, &r)
		return &r, err
	}
	a, _ := recordcache.Decode(c, "k", []byte(`{"N":1}`), decode)
	b, _ := recordcache.Decode(c, "k", []byte(`{"N":1}`), decode)
	if a != b || decodes != 1 {
		t.Fatalf("same bytes: %p %p after %d decodes", a, b, decodes)
	}
	x, _ := recordcache.Decode(c, "k", []byte(`{"N":2}`), decode)
	if x.N != 2 || decodes != 2 {
		t.Fatalf("changed bytes: %+v after %d decodes", x, decodes)
	}
	recordcache.Decode(c, "other", []byte(`{"N":3333333333}`), decode) // 7 + 16 > 20: starts over
	if y, _ := recordcache.Decode(c, "k", []byte(`{"N":2}`), decode); y.N != 2 || decodes != 4 {
		t.Fatalf("after starting over: %+v after %d decodes", y, decodes)
	}
	if _, err := recordcache.Decode(c, "bad", []byte(`{`), decode); err == nil {
		t.Fatal("bad bytes decoded")
	}
	if _, err := recordcache.Decode(nil, "k", []byte(`{"N":1}`), decode); err != nil {
		t.Fatal(err)
	}
}
