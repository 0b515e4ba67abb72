package storecache

// CompositionCacheHits is how many prepared writes through s took their
// composition from the cache (compcache.go), for the tests.
func CompositionCacheHits(s *Store) int64 { return s.comps.hits.Load() }
