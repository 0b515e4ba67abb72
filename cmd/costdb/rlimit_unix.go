//go:build unix

package main

import "syscall"

// raiseDescriptorLimit raises the soft limit on open files to the hard
// limit and returns the limit before and after (0, 0 when it cannot be
// read). Each connection holds a descriptor; the connection caps are set
// below the limit it returns.
func raiseDescriptorLimit() (before, after uint64, err error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, 0, err
	}
	before = l.Cur
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return before, before, err
		}
	}
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return before, before, err
	}
	return before, l.Cur, nil
}
