package httpapi

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/costdb/costdb/domain"
)

// ETOOMANY is the code of the error for too many failed authentications (HTTP 429).
const ETOOMANY = "too_many"

// ThrottleError is an ETOOMANY error that says when to try again: the
// Retry-After of its 429 answer.
type ThrottleError struct {
	Err        *domain.Error
	RetryAfter time.Duration
}

func (e *ThrottleError) Error() string { return e.Err.Error() }

// Unwrap gives the domain error, so that its code and message are found.
func (e *ThrottleError) Unwrap() error { return e.Err }

// SetRetryAfter sets the Retry-After header of an answer to err when err
// answers 429 or 503: the whole seconds until the throttle lets the request
// through, at least 1; when err does not say, 60 for a 429 and
// UnavailableRetryAfter for a 503 (a database that is down, starting or
// shutting down, or too busy).
func SetRetryAfter(w http.ResponseWriter, err error) {
	var secs int
	switch Status(err) {
	case http.StatusTooManyRequests:
		secs = 60
	case http.StatusServiceUnavailable:
		secs = int(UnavailableRetryAfter / time.Second)
	default:
		return
	}
	var te *ThrottleError
	if errors.As(err, &te) {
		secs = int(math.Ceil(te.RetryAfter.Seconds()))
		if secs < 1 {
			secs = 1
		}
	}
	w.Header().Set("Retry-After", strconv.Itoa(secs))
}

// UnavailableRetryAfter is the Retry-After of a 503 whose error does not
// say when to come back: long enough for a restarting PostgreSQL to accept
// connections again, short enough that clients do not wait for nothing.
const UnavailableRetryAfter = 5 * time.Second

// AuthLimiter slows repeated failed authentications without letting a
// stranger lock a real user out. Failures are counted within Window:
//
//   - per (account, client address): after MaxFailures failures, that
//     account is refused from that address. The same account from another
//     address is not affected, so failures sent by a stranger never block
//     the real user elsewhere. There is no count per account alone: that
//     would be a lock-out anybody could trigger.
//   - per client address, over every account: after MaxAddressFailures
//     failures, the address is refused for every account that has failed
//     from it (one failure is enough), but still serves accounts that have
//     not: many users behind one proxy or NAT address are not blocked
//     because one of them, or an attacker among them, fails often.
//
// A success clears the count of its (account, address) pair. Refused
// attempts are not counted. IPv6 addresses count by their /64 network,
// which one host commonly holds whole.
type AuthLimiter struct {
	MaxFailures        int
	MaxAddressFailures int
	Window             time.Duration
	Now                func() time.Time

	mu       sync.Mutex
	failures map[string][]time.Time
}

// NewAuthLimiter returns a limiter allowing max failures per account and
// address and 10×max per address within window.
func NewAuthLimiter(max int, window time.Duration) *AuthLimiter {
	return &AuthLimiter{MaxFailures: max, MaxAddressFailures: 10 * max, Window: window, Now: time.Now, failures: map[string][]time.Time{}}
}

func pairKey(account, addr string) string { return "pair\x00" + addr + "\x00" + account }
func addrKey(addr string) string          { return "addr\x00" + addr }

// Allow returns a *ThrottleError when account may not try to authenticate
// from addr now.
func (l *AuthLimiter) Allow(account, addr string) error {
	if l == nil {
		return nil
	}
	addr = addrBucket(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	pair := l.recent(pairKey(account, addr), now)
	if n := len(pair); l.MaxFailures > 0 && n >= l.MaxFailures {
		return l.refuse(pair[n-l.MaxFailures].Add(l.Window).Sub(now))
	}
	byAddr := l.recent(addrKey(addr), now)
	if n := len(byAddr); len(pair) > 0 && l.MaxAddressFailures > 0 && n >= l.MaxAddressFailures {
		// Free again when the address falls below its limit or the
		// account's failures there have all expired, whichever is first.
		wait := byAddr[n-l.MaxAddressFailures].Add(l.Window).Sub(now)
		if w := pair[len(pair)-1].Add(l.Window).Sub(now); w < wait {
			wait = w
		}
		return l.refuse(wait)
	}
	return nil
}

func (l *AuthLimiter) refuse(wait time.Duration) error {
	if wait < time.Second {
		wait = time.Second
	}
	secs := int(math.Ceil(wait.Seconds()))
	return &ThrottleError{
		Err:        domain.Errorf(ETOOMANY, "too many failed authentications; try again in %s", pluralSeconds(secs)),
		RetryAfter: time.Duration(secs) * time.Second,
	}
}

func pluralSeconds(n int) string {
	if n == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", n)
}

// Fail records a failed authentication of account from addr.
func (l *AuthLimiter) Fail(account, addr string) {
	if l == nil {
		return
	}
	addr = addrBucket(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	l.add(pairKey(account, addr), now, l.MaxFailures)
	l.add(addrKey(addr), now, l.MaxAddressFailures)
	// Bound memory: forget keys whose failures are all old.
	if len(l.failures) > 10000 {
		for k := range l.failures {
			if len(l.recent(k, now)) == 0 {
				delete(l.failures, k)
			}
		}
	}
}

// add records a failure under k, keeping only the newest keep failures:
// enough to tell whether the limit is reached and when it will not be.
func (l *AuthLimiter) add(k string, now time.Time, keep int) {
	ts := append(l.recent(k, now), now)
	if keep > 0 && len(ts) > keep {
		ts = append([]time.Time(nil), ts[len(ts)-keep:]...)
	}
	l.failures[k] = ts
}

// Succeed clears the failures of account from addr.
func (l *AuthLimiter) Succeed(account, addr string) {
	if l == nil {
		return
	}
	addr = addrBucket(addr)
	l.mu.Lock()
	delete(l.failures, pairKey(account, addr))
	l.mu.Unlock()
}

// recent returns the failures under k less than Window old.
func (l *AuthLimiter) recent(k string, now time.Time) []time.Time {
	ts := l.failures[k]
	i := 0
	for i < len(ts) && !now.Before(ts[i].Add(l.Window)) {
		i++
	}
	return ts[i:]
}

// addrBucket is the address failures are counted under: the address itself,
// or for IPv6 its /64 network.
func addrBucket(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Is6() {
		return addr
	}
	p, err := a.Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// ParseTrustedProxies reads a list of proxy addresses and networks (IPs or
// CIDRs, separated by commas or spaces), as --trusted-proxies takes it.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: not an IP address or CIDR network", f)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an IP address or CIDR network", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// ClientAddr is the client's IP address. It is the connection's peer,
// unless the peer is one of TrustedProxies: then it is the right-most
// address of X-Forwarded-For that is not a trusted proxy (the address the
// nearest trusted proxy saw, as every proxy appends its peer), so a client
// cannot choose its address by sending the header itself. When every
// address of the header is trusted, it is the left-most; when the header is
// missing or an entry is not an address, the last trusted hop.
func (e *Env) ClientAddr(r *http.Request) string {
	peer, ok := parseHostAddr(r.RemoteAddr)
	if !ok {
		return clientAddr(r)
	}
	if !e.trusted(peer) {
		return peer.String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHostAddr(strings.TrimSpace(hops[i]))
		if !ok {
			break
		}
		client = a
		if !e.trusted(a) {
			break
		}
	}
	return client.String()
}

func (e *Env) trusted(a netip.Addr) bool {
	for _, p := range e.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseHostAddr reads an IP address, with or without a port.
func parseHostAddr(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}
