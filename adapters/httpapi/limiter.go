package httpapi

import (
	"sync"
	"time"

	"github.com/costdb/costdb/domain"
)

// ETOOMANY is the code of the error for too many failed authentications (HTTP 429).
const ETOOMANY = "too_many"

// AuthLimiter slows repeated failed authentications, counted per e-mail and
// per client address: after MaxFailures failures within Window, further
// attempts for that key are refused until the window has passed. A success
// clears the e-mail's count.
type AuthLimiter struct {
	MaxFailures int
	Window      time.Duration
	Now         func() time.Time

	mu       sync.Mutex
	failures map[string][]time.Time
}

// NewAuthLimiter returns a limiter allowing max failures per key in window.
func NewAuthLimiter(max int, window time.Duration) *AuthLimiter {
	return &AuthLimiter{MaxFailures: max, Window: window, Now: time.Now, failures: map[string][]time.Time{}}
}

// Allow returns an ETOOMANY error when any of keys has failed too often
// recently.
func (l *AuthLimiter) Allow(keys ...string) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	for _, k := range keys {
		if len(l.recent(k, now)) >= l.MaxFailures {
			return domain.Errorf(ETOOMANY, "too many failed authentications; try again in %s", l.Window)
		}
	}
	return nil
}

// Fail records a failed authentication for each key.
func (l *AuthLimiter) Fail(keys ...string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	for _, k := range keys {
		l.failures[k] = append(l.recent(k, now), now)
	}
	// Bound memory: forget keys whose failures are all old.
	if len(l.failures) > 10000 {
		for k := range l.failures {
			if len(l.recent(k, now)) == 0 {
				delete(l.failures, k)
			}
		}
	}
}

// Succeed clears the count of key.
func (l *AuthLimiter) Succeed(key string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	delete(l.failures, key)
	l.mu.Unlock()
}

func (l *AuthLimiter) recent(k string, now time.Time) []time.Time {
	ts := l.failures[k]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) > l.Window {
		i++
	}
	return ts[i:]
}
