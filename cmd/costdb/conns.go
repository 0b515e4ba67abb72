package main

import "github.com/costdb/costdb/adapters/httpapi/server"

const (
	// descriptorReserve is what the connection cap leaves of the
	// descriptor limit for the rest of the process: the store's files
	// (the bbolt file, its admin and key files, a backup being written),
	// the PostgreSQL pool (pgstore.DefaultMaxConns by default), the admin
	// listener and its clients, the log.
	descriptorReserve = 256
	// maxConnsCeiling bounds the automatic cap when the descriptor limit
	// is very large or unknown-infinite: an idle connection holds tens of
	// kilobytes (its goroutine and buffers).
	maxConnsCeiling = 65536
	// fallbackMaxConns is the automatic cap where the limit cannot be read.
	fallbackMaxConns = 4096
)

// connLimits are the connection caps in force: the flags', or when 0
// derived from the descriptor limit nofile (after it was raised): the
// total nofile − descriptorReserve (half of nofile when that is small),
// at most maxConnsCeiling; per client a tenth of that, at least 64.
func (m *Main) connLimits(nofile uint64) server.ConnLimits {
	l := server.ConnLimits{Max: m.MaxConns, PerClient: m.MaxConnsPerClient, TrustedProxies: m.TrustedProxies}
	if l.Max <= 0 {
		switch {
		case nofile == 0:
			l.Max = fallbackMaxConns
		case nofile < 2*descriptorReserve:
			l.Max = int(nofile / 2)
		case nofile-descriptorReserve > maxConnsCeiling:
			l.Max = maxConnsCeiling
		default:
			l.Max = int(nofile - descriptorReserve)
		}
	}
	if l.PerClient <= 0 {
		l.PerClient = max(64, l.Max/10)
	}
	if l.PerClient > l.Max {
		l.PerClient = l.Max
	}
	return l
}
