package httpapi_test

import (
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// clock is a settable time for the limiter.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTestLimiter(maxPair, maxAddr int) (*httpapi.AuthLimiter, *clock) {
	c := &clock{t: time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)}
	l := httpapi.NewAuthLimiter(maxPair, time.Minute)
	l.MaxAddressFailures = maxAddr
	l.Now = c.now
	return l, c
}

// retryAfter is the wait a refusal names, or 0 when err allows.
func retryAfter(t *testing.T, err error) time.Duration {
	t.Helper()
	if err == nil {
		return 0
	}
	te, ok := err.(*httpapi.ThrottleError)
	if !ok || domain.ErrorCode(err) != httpapi.ETOOMANY {
		t.Fatalf("refusal %v (%T) is not an ETOOMANY *ThrottleError", err, err)
	}
	return te.RetryAfter
}

func TestAuthLimiterPerAccountAndAddress(t *testing.T) {
	l, c := newTestLimiter(3, 100)
	for i := 0; i < 3; i++ {
		if err := l.Allow("ana@x", "198.51.100.1"); err != nil {
			t.Fatalf("attempt %d refused: %v", i+1, err)
		}
		l.Fail("ana@x", "198.51.100.1")
		c.t = c.t.Add(10 * time.Second)
	}
	// Failures at 0s, 10s, 20s; now 30s: free at 60s, in 30s.
	type check struct {
		account, addr string
		wait          time.Duration
	}
	checks := func() []check {
		var out []check
		for _, k := range [][2]string{{"ana@x", "198.51.100.1"}, {"ana@x", "198.51.100.2"}, {"bob@x", "198.51.100.1"}} {
			out = append(out, check{k[0], k[1], retryAfter(t, l.Allow(k[0], k[1]))})
		}
		return out
	}
	want := []check{
		{"ana@x", "198.51.100.1", 30 * time.Second}, // locked where she failed
		{"ana@x", "198.51.100.2", 0},                // free from anywhere else
		{"bob@x", "198.51.100.1", 0},                // others free at that address
	}
	if diff := cmp.Diff(want, checks(), cmp.AllowUnexported(check{})); diff != "" {
		t.Errorf("after 3 failures (-want +got):\n%s", diff)
	}
	c.t = c.t.Add(29*time.Second + 500*time.Millisecond)
	if got := retryAfter(t, l.Allow("ana@x", "198.51.100.1")); got != time.Second {
		t.Errorf("half a second before the first failure expires: Retry-After %s, want 1s", got)
	}
	c.t = c.t.Add(500 * time.Millisecond)
	if err := l.Allow("ana@x", "198.51.100.1"); err != nil {
		t.Errorf("a window after the first failure: %v, want allowed", err)
	}
	// A success clears the pair's failures.
	l.Fail("ana@x", "198.51.100.1")
	l.Succeed("ana@x", "198.51.100.1")
	l.Fail("ana@x", "198.51.100.1")
	l.Fail("ana@x", "198.51.100.1")
	if err := l.Allow("ana@x", "198.51.100.1"); err != nil {
		t.Errorf("2 failures after a success: %v, want allowed", err)
	}
}

// TestAuthLimiterSharedAddress checks the rule for an address many users
// share (a proxy, a NAT): once it passes its own limit, it is refused only
// to the accounts that failed from it.
func TestAuthLimiterSharedAddress(t *testing.T) {
	l, c := newTestLimiter(10, 5)
	const proxy = "203.0.113.7"
	l.Fail("ana@x", proxy) // one typo by a real user
	c.t = c.t.Add(20 * time.Second)
	for _, who := range []string{"a@x", "b@x", "c@x", "d@x"} { // an attacker spraying
		l.Fail(who, proxy)
	}
	c.t = c.t.Add(10 * time.Second)
	tests := []struct {
		account, addr string
		wait          time.Duration
	}{
		// ana's failure expires in 30s, the address falls under its
		// limit in 30s too (its oldest failure is ana's).
		{"ana@x", proxy, 30 * time.Second},
		{"a@x", proxy, 30 * time.Second},
		{"carla@x", proxy, 0},       // never failed there: not slowed
		{"ana@x", "203.0.113.8", 0}, // another address: not slowed
	}
	for _, tt := range tests {
		if got := retryAfter(t, l.Allow(tt.account, tt.addr)); got != tt.wait {
			t.Errorf("Allow(%s, %s): wait %s, want %s", tt.account, tt.addr, got, tt.wait)
		}
	}
	// ana's failure expires: she is free again, and the address, down to
	// 4 failures, is under its limit for everyone.
	c.t = c.t.Add(30 * time.Second)
	for _, who := range []string{"ana@x", "a@x"} {
		if err := l.Allow(who, proxy); err != nil {
			t.Errorf("Allow(%s) after the oldest failure expired: %v", who, err)
		}
	}
}

func TestAuthLimiterIPv6Network(t *testing.T) {
	l, _ := newTestLimiter(2, 100)
	l.Fail("ana@x", "2001:db8:1:2::1")
	l.Fail("ana@x", "2001:db8:1:2:ffff::9")
	if got := retryAfter(t, l.Allow("ana@x", "2001:db8:1:2::77")); got == 0 {
		t.Error("failures from one /64 are not counted together")
	}
	if err := l.Allow("ana@x", "2001:db8:1:3::1"); err != nil {
		t.Errorf("another /64: %v, want allowed", err)
	}
}

func TestParseTrustedProxies(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{in: "", want: nil},
		{in: "10.0.0.0/8, 192.168.1.10 ::1", want: []string{"10.0.0.0/8", "192.168.1.10/32", "::1/128"}},
		{in: "10.1.2.3/8", want: []string{"10.0.0.0/8"}},
		{in: "::ffff:10.0.0.1", want: []string{"10.0.0.1/32"}},
		{in: "proxy.local", wantErr: true},
		{in: "10.0.0.0/33", wantErr: true},
	}
	for _, tt := range tests {
		got, err := httpapi.ParseTrustedProxies(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseTrustedProxies(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		var gs []string
		for _, p := range got {
			gs = append(gs, p.String())
		}
		if diff := cmp.Diff(tt.want, gs); diff != "" {
			t.Errorf("ParseTrustedProxies(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestClientAddr(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	tests := []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     []string
		want    string
	}{
		{"no proxies trusted: the header is ignored", nil, "10.0.0.1:4000", []string{"198.51.100.1"}, "10.0.0.1"},
		{"untrusted peer: a spoofed header is ignored", trusted, "203.0.113.9:4000", []string{"198.51.100.1"}, "203.0.113.9"},
		{"trusted peer: the address it saw", trusted, "10.0.0.1:4000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"right-most untrusted, the client's own entries skipped", trusted, "10.0.0.1:4000", []string{"6.6.6.6, 198.51.100.1, 10.0.0.2"}, "198.51.100.1"},
		{"several headers read as one list", trusted, "10.0.0.1:4000", []string{"6.6.6.6", "198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"all trusted: the left-most", trusted, "10.0.0.1:4000", []string{"10.0.0.3, 10.0.0.2"}, "10.0.0.3"},
		{"no header: the peer", trusted, "10.0.0.1:4000", nil, "10.0.0.1"},
		{"an entry that is no address: the last trusted hop", trusted, "10.0.0.1:4000", []string{"198.51.100.1, garbage, 10.0.0.2"}, "10.0.0.2"},
		{"garbage beyond the client is never read", trusted, "10.0.0.1:4000", []string{"garbage, 198.51.100.1"}, "198.51.100.1"},
		{"IPv6 peer", trusted, "[::1]:4000", []string{"2001:db8::5"}, "2001:db8::5"},
		{"an entry with a port", trusted, "10.0.0.1:4000", []string{"198.51.100.1:5555"}, "198.51.100.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &httpapi.Env{TrustedProxies: tt.trusted}
			r := httptest.NewRequest("POST", "/", nil)
			r.RemoteAddr = tt.peer
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := env.ClientAddr(r); got != tt.want {
				t.Errorf("ClientAddr = %s, want %s", got, tt.want)
			}
		})
	}
}
