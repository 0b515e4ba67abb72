//go:build !unix

package main

// raiseDescriptorLimit does nothing where there is no RLIMIT_NOFILE; the
// connection caps then take their fixed defaults.
func raiseDescriptorLimit() (before, after uint64, err error) { return 0, 0, nil }
