package app

// CompositionCacheHits is how many prepared changes of s took their
// composition from the cache (compcache.go), for the tests.
func CompositionCacheHits(s *Service) int64 { return s.comps.hits.Load() }
