package main

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
)

// responseCacheBytes resolves --response-cache: "auto" is
// httpapi.DefaultResponseCacheBytes, or a quarter of the soft memory limit
// when that is lower (limit: the runtime's, math.MaxInt64 when none);
// "off" turns the cache off (ok false); a size is taken as given.
func responseCacheBytes(value string, limit int64) (n int64, ok bool, err error) {
	switch value {
	case "off":
		return 0, false, nil
	case "", "auto":
		n = httpapi.DefaultResponseCacheBytes
		if limit > 0 && limit < math.MaxInt64 && limit/4 < n {
			n = limit / 4
		}
		return n, true, nil
	}
	n, err = parseSize(value)
	if err != nil {
		return 0, false, fmt.Errorf("--response-cache %q: %v (a size such as 256MiB, auto or off)", value, err)
	}
	return n, true, nil
}

// applyResponseCache sets env's response cache as --response-cache says,
// under the memory limit already applied, and logs it.
func (m *Main) applyResponseCache(env *httpapi.Env) error {
	n, ok, err := responseCacheBytes(m.ResponseCache, debug.SetMemoryLimit(-1))
	if err != nil {
		return err
	}
	env.NoResponseCache, env.ResponseCacheBytes = !ok, n
	shown := "off"
	if ok {
		shown = strconv.FormatInt(n>>20, 10) + " MiB"
	}
	m.log.Info("response cache", "bytes", shown)
	return nil
}
