package app

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"net/url"
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
	// MaxBudgetLines caps the lines of one budget. Default
	// domain.DefaultMaxBudgetLines (100,000).
	MaxBudgetLines int
	// MaxBudgetDepth caps the levels of a budget's tree, lines included.
	// Default domain.DefaultMaxBudgetDepth (10).
	MaxBudgetDepth int
	// MaxItemsPerComposition caps the items one composition may hold. Default 2000.
	MaxItemsPerComposition int
	// WebhookURLCheck, when not nil, says whether a webhook's URL may be
	// reached (adapters/webhooks.CheckURL: no private, loopback or
	// link-local address unless the operator allows them); its error is
	// the URL's 422.
	WebhookURLCheck func(ctx context.Context, u *url.URL) error
}

// Service runs the use cases over a Store. It is safe for concurrent use.
// What makes them fast (write generations, caches, prepared writes) is a
// decorator of the Store, app/storecache, that the program wires in.
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
	if cfg.MaxBudgetLines <= 0 {
		cfg.MaxBudgetLines = domain.DefaultMaxBudgetLines
	}
	if cfg.MaxBudgetDepth <= 0 {
		cfg.MaxBudgetDepth = domain.DefaultMaxBudgetDepth
	}
	if cfg.MaxItemsPerComposition <= 0 {
		cfg.MaxItemsPerComposition = 2000
	}
	return &Service{store: store, tokens: tokens, cfg: cfg, Now: time.Now}
}

// Config returns the settings in force.
func (s *Service) Config() Config { return s.cfg }

// WithConfig returns a Service over the same store, tokens and clock with
// other settings (zero values take the defaults).
func (s *Service) WithConfig(cfg Config) *Service {
	c := New(s.store, s.tokens, cfg)
	c.Now = s.Now
	return c
}

// Health reports whether the store answers.
func (s *Service) Health(ctx context.Context) error { return s.store.Ping(ctx) }

// now returns the current time truncated to microseconds, the precision every
// store keeps.
func (s *Service) now() time.Time { return s.Now().Truncate(time.Microsecond) }

var idGen struct {
	sync.Mutex
	started bool
	lastSec uint32
	random  [5]byte
	counter uint32
}

// NewID returns a new record ID in the layout of a MongoDB ObjectId, as the
// IDs of the API costdb mirrors look: 24 lower-case hexadecimal characters
// encoding 12 bytes, a 4-byte big-endian count of seconds since the Unix
// epoch, 5 random bytes chosen once per process and a 3-byte counter that
// starts at a random value. IDs made by one process strictly increase, so
// they sort in creation order: a clock that steps back reuses the last
// second, and a counter that wraps within a second moves on to the next
// second. The 26-character IDs of earlier versions (ULID layout, starting
// "0") sort before every ID made here (starting "6" or more until 2084).
func NewID(now time.Time) string {
	idGen.Lock()
	if !idGen.started {
		var seed [8]byte
		if _, err := rand.Read(seed[:]); err != nil {
			panic(err)
		}
		copy(idGen.random[:], seed[:5])
		idGen.counter = uint32(seed[5])<<16 | uint32(seed[6])<<8 | uint32(seed[7])
		idGen.started = true
	}
	sec := uint32(now.Unix())
	if sec < idGen.lastSec {
		sec = idGen.lastSec
	}
	idGen.counter = (idGen.counter + 1) & 0xffffff
	if idGen.counter == 0 && sec == idGen.lastSec {
		// The counter wrapped within the second: take the next one, so
		// that the new ID still sorts after the last.
		sec++
	}
	idGen.lastSec = sec
	var raw [12]byte
	binary.BigEndian.PutUint32(raw[0:4], sec)
	copy(raw[4:9], idGen.random[:])
	raw[9], raw[10], raw[11] = byte(idGen.counter>>16), byte(idGen.counter>>8), byte(idGen.counter)
	idGen.Unlock()
	return hex.EncodeToString(raw[:])
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
