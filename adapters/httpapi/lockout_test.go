package httpapi_test

import (
	"encoding/json"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
)

// loginPaths are the login operations of both generations.
var loginPaths = []struct{ gen, path string }{
	{"v1", "/api/v1/login/authenticate_user"},
	{"v2", "/api/public/v2/authenticate"},
}

// loginBody is a login request body; both generations take it.
func loginBody(t *testing.T, email, secret string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"email": email, "secret_token": secret})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// behindProxy starts a harness that trusts the test client's address as a
// proxy, so that X-Forwarded-For chooses the client address of each request.
func behindProxy(t *testing.T, maxPair, maxAddr int) *apitest.Harness {
	return apitest.New(t, func(env *httpapi.Env) {
		env.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
		env.Limiter = httpapi.NewAuthLimiter(maxPair, time.Minute)
		env.Limiter.MaxAddressFailures = maxAddr
	})
}

// checkRetryAfter fails unless a 429 says when to retry, in whole seconds
// within the window.
func checkRetryAfter(t *testing.T, r *apitest.Response) {
	t.Helper()
	v := r.Header.Get("Retry-After")
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 60 {
		t.Errorf("429 with Retry-After %q, want whole seconds from 1 to 60", v)
	}
}

// TestStrangerCannotLockOutUser is the lock-out scenario: 50 failed logins
// for ana from address A; ana logs in at once from address B, and another
// user logs in from A.
func TestStrangerCannotLockOutUser(t *testing.T) {
	const addrA, addrB = "198.51.100.10", "203.0.113.20"
	for _, lp := range loginPaths {
		t.Run(lp.gen, func(t *testing.T) {
			h := behindProxy(t, 10, 100)
			ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
			bob := h.AddUser("Construtora Beta", "bob@beta.com.br")
			statuses := map[int]int{}
			for i := 0; i < 50; i++ {
				r := h.Do("POST", lp.path, "", loginBody(t, ana.Email, "wrong"), "X-Forwarded-For", addrA)
				statuses[r.Status]++
				if r.Status == 429 {
					checkRetryAfter(t, r)
				}
			}
			if statuses[401] != 10 || statuses[429] != 40 {
				t.Errorf("50 failed logins from A answered %v, want 10×401 then 40×429", statuses)
			}
			steps := []struct {
				name, email, secret, addr string
				status                    int
			}{
				{"ana from B", ana.Email, ana.Secret, addrB, 200},
				{"bob from A", bob.Email, bob.Secret, addrA, 200},
				{"ana from A, still throttled there", ana.Email, ana.Secret, addrA, 429},
			}
			for _, s := range steps {
				r := h.Do("POST", lp.path, "", loginBody(t, s.email, s.secret), "X-Forwarded-For", s.addr)
				if r.Status != s.status {
					t.Errorf("%s: status %d, want %d\n%s", s.name, r.Status, s.status, r.Body)
				}
				if r.Status == 429 {
					checkRetryAfter(t, r)
				}
			}
		})
	}
}

// TestSharedProxyAddress checks that an address over its own limit (an
// attacker spraying accounts behind a proxy many users share) is refused
// only to the accounts that failed from it.
func TestSharedProxyAddress(t *testing.T) {
	const proxy, home = "198.51.100.10", "203.0.113.20"
	for _, lp := range loginPaths {
		t.Run(lp.gen, func(t *testing.T) {
			h := behindProxy(t, 10, 6)
			ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
			bob := h.AddUser("Construtora Beta", "bob@beta.com.br")
			// ana mistypes once; an attacker tries five other accounts.
			h.Do("POST", lp.path, "", loginBody(t, ana.Email, "typo"), "X-Forwarded-For", proxy)
			for i := 0; i < 5; i++ {
				email := "victim" + strconv.Itoa(i) + "@alfa.com.br"
				if r := h.Do("POST", lp.path, "", loginBody(t, email, "guess"), "X-Forwarded-For", proxy); r.Status != 401 {
					t.Fatalf("guess %d: status %d, want 401", i, r.Status)
				}
			}
			steps := []struct {
				name, email, secret, addr string
				status                    int
			}{
				{"a sprayed account at the proxy", "victim0@alfa.com.br", "guess", proxy, 429},
				{"ana, who failed at the proxy", ana.Email, ana.Secret, proxy, 429},
				{"bob, who never failed there", bob.Email, bob.Secret, proxy, 200},
				{"ana from home", ana.Email, ana.Secret, home, 200},
			}
			for _, s := range steps {
				r := h.Do("POST", lp.path, "", loginBody(t, s.email, s.secret), "X-Forwarded-For", s.addr)
				if r.Status != s.status {
					t.Errorf("%s: status %d, want %d\n%s", s.name, r.Status, s.status, r.Body)
				}
				if r.Status == 429 {
					checkRetryAfter(t, r)
				}
			}
		})
	}
}

// TestForwardedForNotTrustedByDefault checks that a client that is not a
// trusted proxy cannot escape the throttle by naming another address.
func TestForwardedForNotTrustedByDefault(t *testing.T) {
	for _, lp := range loginPaths {
		t.Run(lp.gen, func(t *testing.T) {
			h := apitest.New(t, func(env *httpapi.Env) { env.Limiter = httpapi.NewAuthLimiter(3, time.Minute) })
			ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
			for i := 0; i < 3; i++ {
				h.Do("POST", lp.path, "", loginBody(t, ana.Email, "wrong"), "X-Forwarded-For", "198.51.100."+strconv.Itoa(i))
			}
			r := h.Do("POST", lp.path, "", loginBody(t, ana.Email, ana.Secret), "X-Forwarded-For", "203.0.113.20")
			if r.Status != 429 {
				t.Fatalf("status %d, want 429: X-Forwarded-For from an untrusted peer chose the address\n%s", r.Status, r.Body)
			}
			checkRetryAfter(t, r)
		})
	}
}
