// Package jwtauth implements app.Tokens with signed JWTs (HS256, via
// lestrrat-go/jwx). The signing key comes from the caller, which keeps it in
// the database so that tokens survive a restart.
package jwtauth

import (
	"errors"
	"sync"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jwt"
)

const (
	issuer       = "costdb"
	companyClaim = "company"
)

// Tokens issues and verifies access tokens signed with one key.
type Tokens struct {
	key []byte
	// Now is the clock used to check expiry; tests replace it.
	Now func() time.Time

	// verified remembers the claims of tokens whose signature checked out
	// (issue 11: parsing and verifying the JWT was 9-16% of a read). A
	// token's claims depend on nothing but its bytes and the key, so an
	// entry is exact; it is used only while the token has not expired by
	// Now, and Verify re-checks from scratch otherwise. Whether the user may
	// still use it is not cached: app.Authorize reads the user every time.
	mu       sync.RWMutex
	verified map[string]app.Claims
}

// maxVerified bounds the verified-token cache; when full it starts over.
const maxVerified = 10000

// New returns Tokens signing with key, which must be at least 32 bytes.
func New(key []byte) (*Tokens, error) {
	if len(key) < 32 {
		return nil, errors.New("jwtauth: the signing key must be at least 32 bytes")
	}
	return &Tokens{key: append([]byte(nil), key...), Now: time.Now}, nil
}

// Issue signs a token carrying the claims: sub (user), company, jti, iat, exp.
func (t *Tokens) Issue(c app.Claims) (string, error) {
	tok, err := jwt.NewBuilder().
		Issuer(issuer).
		Subject(c.UserID).
		Claim(companyClaim, c.CompanyID).
		JwtID(c.TokenID).
		IssuedAt(c.IssuedAt).
		Expiration(c.ExpiresAt).
		Build()
	if err != nil {
		return "", err
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.HS256, t.key))
	if err != nil {
		return "", err
	}
	return string(signed), nil
}

// Verify checks the signature, the issuer and the expiry (which must be
// present) and returns the claims. Any failure is EUNAUTHORIZED.
func (t *Tokens) Verify(s string) (app.Claims, error) {
	now := t.Now()
	t.mu.RLock()
	c, ok := t.verified[s]
	t.mu.RUnlock()
	if ok && now.Truncate(time.Second).Before(c.ExpiresAt) && !now.Add(time.Second).Before(c.IssuedAt) {
		return c, nil
	}
	c, err := t.verify(s)
	if err == nil {
		t.mu.Lock()
		if t.verified == nil || len(t.verified) >= maxVerified {
			t.verified = make(map[string]app.Claims)
		}
		t.verified[s] = c
		t.mu.Unlock()
	}
	return c, err
}

// verify is Verify without the cache.
func (t *Tokens) verify(s string) (app.Claims, error) {
	tok, err := jwt.Parse([]byte(s),
		jwt.WithKey(jwa.HS256, t.key),
		jwt.WithValidate(true),
		jwt.WithIssuer(issuer),
		jwt.WithRequiredClaim(jwt.ExpirationKey),
		jwt.WithRequiredClaim(jwt.SubjectKey),
		jwt.WithClock(jwt.ClockFunc(t.Now)),
	)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired()) {
			return app.Claims{}, domain.Errorf(domain.EUNAUTHORIZED, "the access token has expired")
		}
		return app.Claims{}, domain.Errorf(domain.EUNAUTHORIZED, "the access token is not valid")
	}
	company, _ := tok.PrivateClaims()[companyClaim].(string)
	if company == "" {
		return app.Claims{}, domain.Errorf(domain.EUNAUTHORIZED, "the access token is not valid")
	}
	return app.Claims{
		UserID:    tok.Subject(),
		CompanyID: company,
		TokenID:   tok.JwtID(),
		IssuedAt:  tok.IssuedAt(),
		ExpiresAt: tok.Expiration(),
	}, nil
}
