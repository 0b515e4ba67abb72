package jwtauth_test

import (
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
