package app

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"

	"github.com/costdb/costdb/domain"
)

// Config holds the settings of the use cases. Zero values take the defaults.
type Config struct {
	// TokenTTL is how long an access token is valid. Default 24h.
	TokenTTL time.Duration
	// MaxItemsPerRequest caps the items or banks one add/remove request may carry. Default 500.
	MaxItemsPerRequest int
}

// Service runs the use cases over a Store. It is safe for concurrent use.
type Service struct {
	store  Store
	tokens Tokens
	cfg    Config
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// New returns a Service. tokens may be nil for tools that never
// authenticate (the import commands).
func New(store Store, tokens Tokens, cfg Config) *Service {
	if cfg.TokenTTL <= 0 {
		cfg.TokenTTL = 24 * time.Hour
	}
	if cfg.MaxItemsPerRequest <= 0 {
		cfg.MaxItemsPerRequest = 500
	}
	return &Service{store: rejectingStore{store}, tokens: tokens, cfg: cfg, Now: time.Now}
}

// Config returns the settings in force.
func (s *Service) Config() Config { return s.cfg }

// Health reports whether the store answers.
func (s *Service) Health(ctx context.Context) error { return s.store.Ping(ctx) }

// now returns the current time truncated to microseconds, the precision every
// store keeps.
func (s *Service) now() time.Time { return s.Now().Truncate(time.Microsecond) }

var idGen struct {
	sync.Mutex
	lastMS uint64
	last   [10]byte
}

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns a new record ID: 26 URL-safe characters, a millisecond
// timestamp followed by 80 random bits (the ULID layout), so that IDs sort in
// creation order and never collide in practice. IDs made in the same
// millisecond increase monotonically.
func NewID(now time.Time) string {
	idGen.Lock()
	ms := uint64(now.UnixMilli())
	if ms <= idGen.lastMS {
		ms = idGen.lastMS
		// Increment the random part as a big-endian number.
		for i := len(idGen.last) - 1; i >= 0; i-- {
			idGen.last[i]++
			if idGen.last[i] != 0 {
				break
			}
		}
	} else {
		if _, err := rand.Read(idGen.last[:]); err != nil {
			panic(err)
		}
		idGen.lastMS = ms
	}
	var raw [16]byte
	binary.BigEndian.PutUint16(raw[0:2], uint16(ms>>32))
	binary.BigEndian.PutUint32(raw[2:6], uint32(ms))
	copy(raw[6:], idGen.last[:])
	idGen.Unlock()
	// 128 bits → 26 base-32 characters (the first carries 3 bits).
	var out [26]byte
	hi := binary.BigEndian.Uint64(raw[0:8])
	lo := binary.BigEndian.Uint64(raw[8:16])
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// notFound returns the ENOTFOUND error for a record of kind.
func notFound(kind, id string) error {
	return domain.Errorf(domain.ENOTFOUND, "%s %s not found", kind, id)
}

// inCompany turns a record of another company into a not-found error, so
// that another company's record answers exactly as a missing one does.
func inCompany(p domain.Principal, companyID, kind, id string) error {
	if companyID != p.CompanyID {
		return notFound(kind, id)
	}
	return nil
}

// isNotFound reports whether err is an ENOTFOUND error.
func isNotFound(err error) bool { return domain.ErrorCode(err) == domain.ENOTFOUND }

// Page selects a window of a list: Offset records skipped, at most Limit
// returned (0 means all).
type Page struct {
	Offset int
	Limit  int
}

// window returns the part of a list of n records that p selects, as a slice
// range.
func (p Page) window(n int) (int, int) {
	lo := p.Offset
	if lo < 0 {
		lo = 0
	}
	if lo > n {
		lo = n
	}
	hi := n
	if p.Limit > 0 && lo+p.Limit < n {
		hi = lo + p.Limit
	}
	return lo, hi
}
