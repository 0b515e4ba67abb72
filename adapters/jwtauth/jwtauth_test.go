package jwtauth_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jwt"
)

var key = []byte("0123456789abcdef0123456789abcdef")

func TestRoundTrip(t *testing.T) {
	tk, err := jwtauth.New(key)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	tk.Now = func() time.Time { return now.Add(time.Minute) }
	want := app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j1", IssuedAt: now, ExpiresAt: now.Add(time.Hour)}
	s, err := tk.Issue(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tk.Verify(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

func TestRefused(t *testing.T) {
	tk, _ := jwtauth.New(key)
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	tk.Now = func() time.Time { return now }
	good, _ := tk.Issue(app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	expired, _ := tk.Issue(app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j", IssuedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Hour)})
	other, _ := jwtauth.New([]byte("another-key-another-key-another-k"))
	forged, _ := other.Issue(app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	noExp, _ := jwt.NewBuilder().Issuer("costdb").Subject("u1").Claim("company", "c1").Build()
	noExpSigned, _ := jwt.Sign(noExp, jwt.WithKey(jwa.HS256, key))
	parts := strings.Split(good, ".")
	tampered := parts[0] + "." + parts[1] + "x." + parts[2]
	if _, err := tk.Verify(good); err != nil {
		t.Fatalf("good token refused: %v", err)
	}
	for name, tok := range map[string]string{
		"expired": expired, "forged": forged, "no exp": string(noExpSigned),
		"tampered": tampered, "garbage": "not-a-token", "empty": "",
	} {
		if _, err := tk.Verify(tok); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
			t.Errorf("%s: err = %v, want EUNAUTHORIZED", name, err)
		}
	}
}

func TestShortKey(t *testing.T) {
	if _, err := jwtauth.New([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
}

// TestVerifiedTokenExpiresInCache checks that a token verified once (and
// so remembered) is refused as soon as it expires, and that a token signed
// with another key is refused even after a good one was remembered.
func TestVerifiedTokenExpiresInCache(t *testing.T) {
	tk, _ := jwtauth.New(key)
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	clock := now
	tk.Now = func() time.Time { return clock }
	tok, _ := tk.Issue(app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	for i := 0; i < 2; i++ { // the second time from the cache
		if c, err := tk.Verify(tok); err != nil || c.UserID != "u1" {
			t.Fatalf("verify %d: %+v, %v", i, c, err)
		}
	}
	clock = now.Add(time.Hour)
	if _, err := tk.Verify(tok); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Errorf("at expiry: err = %v, want EUNAUTHORIZED", err)
	}
	clock = now.Add(30 * time.Minute)
	other, _ := jwtauth.New([]byte("another-key-another-key-another-k"))
	other.Now = tk.Now
	if _, err := other.Verify(tok); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Errorf("another key: err = %v, want EUNAUTHORIZED", err)
	}
}

// TestVerifiedTokenForgottenWhenKeyLeaves checks that a token verified
// (and remembered) with a key is refused once the ring no longer holds it.
func TestVerifiedTokenForgottenWhenKeyLeaves(t *testing.T) {
	tk, _ := jwtauth.New(key)
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	tk.Now = func() time.Time { return now }
	tok, _ := tk.Issue(app.Claims{UserID: "u1", CompanyID: "c1", TokenID: "j", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if _, err := tk.Verify(tok); err != nil {
		t.Fatal(err)
	}
	if err := tk.SetKeys([]jwtauth.Key{{Secret: []byte("another-key-another-key-another-k")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := tk.Verify(tok); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Errorf("after the key left the ring: err = %v, want EUNAUTHORIZED", err)
	}
}

// handSigned returns a token with the given header whose signature is
// HMAC-SHA256 of its header and claims under secret, whatever the header's
// alg says: the shape of a token whose header lies about its algorithm.
func handSigned(t *testing.T, header map[string]any, claims map[string]any, secret []byte) string {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	signing := enc(header) + "." + enc(claims)
	if secret == nil {
		return signing + "."
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(signing))
	return signing + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// TestHeaderAlgorithmChecked checks that a token is accepted only when its
// header names the key's algorithm (HS256): a header saying HS512 (or
// anything else, or none) over a valid HS256 signature is refused, as is
// an unsigned `none` token.
func TestHeaderAlgorithmChecked(t *testing.T) {
	tk, _ := jwtauth.New(key)
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	tk.Now = func() time.Time { return now }
	claims := map[string]any{
		"iss": "costdb", "sub": "u1", "company": "c1", "jti": "j",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	kid := jwtauth.KeyID(key)
	// The control: the same hand-made token with the true header passes,
	// so each refusal below is the header's doing.
	good := handSigned(t, map[string]any{"alg": "HS256", "kid": kid, "typ": "JWT"}, claims, key)
	if c, err := tk.Verify(good); err != nil || c.UserID != "u1" {
		t.Fatalf("hand-signed HS256 token: %+v, %v", c, err)
	}
	for name, tok := range map[string]string{
		"HS512 header, HS256 signature":    handSigned(t, map[string]any{"alg": "HS512", "kid": kid, "typ": "JWT"}, claims, key),
		"HS384 header, HS256 signature":    handSigned(t, map[string]any{"alg": "HS384", "kid": kid}, claims, key),
		"RS256 header, HS256 signature":    handSigned(t, map[string]any{"alg": "RS256", "kid": kid}, claims, key),
		"none header, HS256 signature":     handSigned(t, map[string]any{"alg": "none", "kid": kid}, claims, key),
		"no alg, HS256 signature":          handSigned(t, map[string]any{"kid": kid}, claims, key),
		"none header, no signature":        handSigned(t, map[string]any{"alg": "none", "kid": kid}, claims, nil),
		"none header, no kid no signature": handSigned(t, map[string]any{"alg": "none"}, claims, nil),
	} {
		if _, err := tk.Verify(tok); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
			t.Errorf("%s: err = %v, want EUNAUTHORIZED", name, err)
		}
	}
}
