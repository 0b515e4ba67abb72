// Package jwtauth implements app.Tokens with signed JWTs (HS256, via
// lestrrat-go/jwx). It signs with the newest key of a key ring and verifies
// with any key of it, named by the token's `kid` header, so that a rotated
// key's tokens keep working until they expire (keyfile.go keeps the ring in
// a file).
package jwtauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jws"
	"github.com/lestrrat-go/jwx/v2/jwt"
)

const (
	issuer       = "costdb"
	companyClaim = "company"
	// issuedMsClaim is the issue time in Unix milliseconds: iat has whole
	// seconds only, too coarse to tell a token issued just after a
	// revocation from one issued just before it.
	issuedMsClaim = "iat_ms"
	// signingAlg is the keys' algorithm; a token whose header names any
	// other (none included) is refused.
	signingAlg = jwa.HS256
)

// Key is one signing key and its id.
type Key struct {
	ID     string
	Secret []byte
}

// KeyID is the id of a key that has none: derived from the secret.
func KeyID(secret []byte) string {
	h := sha256.Sum256(secret)
	return hex.EncodeToString(h[:6])
}

// Tokens issues and verifies access tokens.
type Tokens struct {
	mu      sync.RWMutex
	current Key
	keys    []Key
	// Now is the clock used to check expiry; tests replace it.
	Now func() time.Time
	// Reload, when set, is called (at most once a second) when a token
	// names a key this ring does not hold: another server sharing the key
	// file may have rotated it.
	Reload     func() ([]Key, error)
	lastReload time.Time

	// verified remembers the claims of tokens whose signature checked out
	// (issue 11: parsing and verifying the JWT was 9-16% of a read). A
	// token's claims depend on nothing but its bytes and the key ring, so
	// an entry is exact; SetKeys forgets them all (a key may have left the
	// ring), and an entry is used only while the token has not expired by
	// Now: Verify re-checks from scratch otherwise. Whether the user may
	// still use it is not cached: app.Authorize reads the user (and the
	// revocations) every time.
	vmu      sync.RWMutex
	verified map[string]app.Claims
}

// maxVerified bounds the verified-token cache; when full it starts over.
const maxVerified = 10000

// New returns Tokens signing with key, which must be at least 32 bytes.
func New(key []byte) (*Tokens, error) {
	return NewRing([]Key{{ID: KeyID(key), Secret: key}})
}

// NewRing returns Tokens that sign with the last key and verify with any.
func NewRing(keys []Key) (*Tokens, error) {
	t := &Tokens{Now: time.Now}
	if err := t.SetKeys(keys); err != nil {
		return nil, err
	}
	return t, nil
}

// SetKeys replaces the ring: tokens are signed with the last key from now on.
func (t *Tokens) SetKeys(keys []Key) error {
	if len(keys) == 0 {
		return errors.New("jwtauth: no signing key")
	}
	cp := make([]Key, len(keys))
	for i, k := range keys {
		if len(k.Secret) < 32 {
			return errors.New("jwtauth: the signing key must be at least 32 bytes")
		}
		if k.ID == "" {
			k.ID = KeyID(k.Secret)
		}
		cp[i] = Key{ID: k.ID, Secret: append([]byte(nil), k.Secret...)}
	}
	t.mu.Lock()
	t.keys, t.current = cp, cp[len(cp)-1]
	t.mu.Unlock()
	t.vmu.Lock()
	t.verified = nil // verified with the old ring
	t.vmu.Unlock()
	return nil
}

// CurrentKeyID is the id of the key new tokens are signed with.
func (t *Tokens) CurrentKeyID() string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.current.ID
}

// Issue signs a token carrying the claims: sub (user), company, jti, iat,
// iat_ms, exp; its header names the key (kid).
func (t *Tokens) Issue(c app.Claims) (string, error) {
	tok, err := jwt.NewBuilder().
		Issuer(issuer).
		Subject(c.UserID).
		Claim(companyClaim, c.CompanyID).
		Claim(issuedMsClaim, c.IssuedAt.UnixMilli()).
		JwtID(c.TokenID).
		IssuedAt(c.IssuedAt).
		Expiration(c.ExpiresAt).
		Build()
	if err != nil {
		return "", err
	}
	t.mu.RLock()
	key := t.current
	t.mu.RUnlock()
	hdr := jws.NewHeaders()
	if err := hdr.Set(jws.KeyIDKey, key.ID); err != nil {
		return "", err
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(signingAlg, key.Secret, jws.WithProtectedHeaders(hdr)))
	if err != nil {
		return "", err
	}
	return string(signed), nil
}

// keysFor returns the keys that may have signed a token whose header names
// kid: that key, or every key for a token without a kid (issued before
// keys had ids).
func (t *Tokens) keysFor(kid string) [][]byte {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out [][]byte
	for _, k := range t.keys {
		if kid == "" || k.ID == kid {
			out = append(out, k.Secret)
		}
	}
	return out
}

// reload re-reads the ring when allowed; it reports whether it did.
func (t *Tokens) reload() bool {
	if t.Reload == nil {
		return false
	}
	t.mu.Lock()
	if time.Since(t.lastReload) < time.Second {
		t.mu.Unlock()
		return false
	}
	t.lastReload = time.Now()
	t.mu.Unlock()
	keys, err := t.Reload()
	if err != nil || len(keys) == 0 {
		return false
	}
	return t.SetKeys(keys) == nil
}

// Verify checks the signature, the issuer and the expiry (which must be
// present) and returns the claims. Any failure is EUNAUTHORIZED.
func (t *Tokens) Verify(s string) (app.Claims, error) {
	now := t.Now()
	t.vmu.RLock()
	c, ok := t.verified[s]
	t.vmu.RUnlock()
	if ok && now.Truncate(time.Second).Before(c.ExpiresAt) && !now.Add(time.Second).Before(c.IssuedAt) {
		return c, nil
	}
	c, err := t.verify(s)
	if err == nil {
		t.vmu.Lock()
		if t.verified == nil || len(t.verified) >= maxVerified {
			t.verified = make(map[string]app.Claims)
		}
		t.verified[s] = c
		t.vmu.Unlock()
	}
	return c, err
}

// verify is Verify without the cache.
func (t *Tokens) verify(s string) (app.Claims, error) {
	provider := jws.KeyProviderFunc(func(_ context.Context, sink jws.KeySink, sig *jws.Signature, _ *jws.Message) error {
		// jws verifies with the algorithm given here, not the header's: a
		// header naming another algorithm (HS512, none) over an HS256
		// signature would pass unless it is checked (issue 22).
		if alg := sig.ProtectedHeaders().Algorithm(); alg != signingAlg {
			return errors.New("jwtauth: the token's algorithm is not the key's")
		}
		kid := sig.ProtectedHeaders().KeyID()
		keys := t.keysFor(kid)
		if len(keys) == 0 && kid != "" && t.reload() {
			keys = t.keysFor(kid)
		}
		for _, k := range keys {
			sink.Key(signingAlg, k)
		}
		return nil
	})
	tok, err := jwt.Parse([]byte(s),
		jwt.WithKeyProvider(provider),
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
	iat := tok.IssuedAt()
	if ms, ok := tok.PrivateClaims()[issuedMsClaim].(float64); ok && ms > 0 {
		if precise := time.UnixMilli(int64(ms)); precise.Unix() == iat.Unix() {
			iat = precise
		}
	}
	return app.Claims{
		UserID:    tok.Subject(),
		CompanyID: company,
		TokenID:   tok.JwtID(),
		IssuedAt:  iat,
		ExpiresAt: tok.Expiration(),
	}, nil
}
