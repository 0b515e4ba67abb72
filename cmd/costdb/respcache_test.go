package main

import (
	"math"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
)

func TestResponseCacheBytes(t *testing.T) {
	for _, c := range []struct {
		value string
		limit int64
		n     int64
		ok    bool
		err   string
	}{
		{"auto", math.MaxInt64, httpapi.DefaultResponseCacheBytes, true, ""},
		{"", math.MaxInt64, httpapi.DefaultResponseCacheBytes, true, ""},
		{"auto", 8 << 30, httpapi.DefaultResponseCacheBytes, true, ""},
		{"auto", 512 << 20, 128 << 20, true, ""}, // a quarter of a small limit
		{"off", math.MaxInt64, 0, false, ""},
		{"512MiB", 512 << 20, 512 << 20, true, ""}, // as given, whatever the limit
		{"lots", math.MaxInt64, 0, false, `--response-cache "lots"`},
	} {
		n, ok, err := responseCacheBytes(c.value, c.limit)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one naming %s", c.value, err, c.err)
			}
			continue
		}
		if err != nil || n != c.n || ok != c.ok {
			t.Errorf("%q under %d: %d %v %v, want %d %v", c.value, c.limit, n, ok, err, c.n, c.ok)
		}
	}
}
