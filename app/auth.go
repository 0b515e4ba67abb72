package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// settingSigningKey is where the token signing key is kept in the store.
const settingSigningKey = "auth.signing_key"

// SigningKey returns the key that signs access tokens: generated (256
// random bits) and stored on first use, so tokens survive a restart.
func (s *Service) SigningKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := s.store.Update(ctx, func(tx Tx) error {
		k, err := tx.Setting(settingSigningKey)
		if err != nil {
			return err
		}
		if k == nil {
			k = make([]byte, 32)
			if _, err := rand.Read(k); err != nil {
				return err
			}
			if err := tx.PutSetting(settingSigningKey, k); err != nil {
				return err
			}
		}
		key = k
		return nil
	})
	return key, err
}

// NewUserInput is what `users add` gives.
type NewUserInput struct {
	Company    string // company name; created when new
	Email      string
	Name       string
	Department string // department name; created when new; default "Geral"
}

// NewUser is a created user with its secret token, which is shown only now.
type NewUser struct {
	User        *domain.User
	Company     *domain.Company
	Department  *domain.Department
	SecretToken string
}

// AddUser creates a user (and its company and department when new) and
// returns its secret token. Returns EINVALID for a bad e-mail address or one
// already in use.
func (s *Service) AddUser(ctx context.Context, in NewUserInput) (*NewUser, error) {
	var out *NewUser
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		out, err = addUser(tx, s.now(), in)
		return err
	})
	return out, err
}

func addUser(tx Tx, now time.Time, in NewUserInput) (*NewUser, error) {
	var v domain.Validation
	company := strings.TrimSpace(in.Company)
	if company == "" {
		v.Add("/company", "is required")
	}
	dept := strings.TrimSpace(in.Department)
	if dept == "" {
		dept = "Geral"
	}
	u := &domain.User{Email: domain.NormalizeEmail(in.Email), Name: strings.TrimSpace(in.Name), CreatedAt: now}
	_ = v.Merge("", u.Validate())
	if u.Email != "" {
		if _, err := tx.UserByEmail(u.Email); err == nil {
			v.Add("/email", "is already in use")
		} else if !isNotFound(err) {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	c, err := tx.CompanyByName(company)
	if isNotFound(err) {
		c = &domain.Company{ID: NewID(now), Name: company, CreatedAt: now}
		err = tx.PutCompany(c)
	}
	if err != nil {
		return nil, err
	}
	d, err := tx.DepartmentByName(c.ID, dept)
	if isNotFound(err) {
		d = &domain.Department{ID: NewID(now), CompanyID: c.ID, Name: dept, CreatedAt: now}
		err = tx.PutDepartment(d)
	}
	if err != nil {
		return nil, err
	}
	secret, hash, err := newSecret()
	if err != nil {
		return nil, err
	}
	u.ID, u.CompanyID, u.DepartmentID, u.SecretHash = NewID(now), c.ID, d.ID, hash
	if u.Name == "" {
		u.Name = u.Email[:strings.IndexByte(u.Email, '@')]
	}
	if err := tx.PutUser(u); err != nil {
		return nil, err
	}
	return &NewUser{User: u, Company: c, Department: d, SecretToken: secret}, nil
}

// newSecret makes a secret token (256 random bits, URL-safe text) and its hash.
func newSecret() (string, []byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, err
	}
	secret := "cdb_" + base64.RawURLEncoding.EncodeToString(b)
	return secret, hashSecret(secret), nil
}

// hashSecret hashes a secret token. The token is 256 random bits, so a plain
// SHA-256 is enough: there is nothing to brute-force.
func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// SetUserDisabled disables or enables a user by e-mail. A disabled user's
// tokens stop working at once. Returns ENOTFOUND for an unknown e-mail.
func (s *Service) SetUserDisabled(ctx context.Context, email string, disabled bool) error {
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := tx.UserByEmail(domain.NormalizeEmail(email))
		if err != nil {
			return err
		}
		u.Disabled = disabled
		if disabled {
			u.TokensRevokedAt = s.Now()
		}
		return tx.PutUser(u)
	})
}

// Session is the result of a successful authentication.
type Session struct {
	Token      string
	TokenID    string
	ExpiresIn  time.Duration
	User       *domain.User
	Company    *domain.Company
	Department *domain.Department
}

// errBadCredentials is the one answer to every failed authentication, so it
// never hints which part was wrong.
var errBadCredentials = domain.Errorf(domain.EUNAUTHORIZED, "invalid e-mail or secret token")

// dummyHash is compared against when the e-mail is unknown, so that an
// unknown e-mail takes as long as a wrong token.
var dummyHash = hashSecret("cdb_no-such-user")

// Authenticate checks an e-mail and secret token and issues an access token.
// Returns EUNAUTHORIZED for bad credentials or a disabled user.
func (s *Service) Authenticate(ctx context.Context, email, secret string) (*Session, error) {
	var sess Session
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := tx.UserByEmail(domain.NormalizeEmail(email))
		want := dummyHash
		if err == nil {
			want = u.SecretHash
		} else if !isNotFound(err) {
			return err
		}
		match := subtle.ConstantTimeCompare(hashSecret(secret), want) == 1
		if err != nil || !match || u.Disabled || secret == "" {
			return errBadCredentials
		}
		c, err := tx.Company(u.CompanyID)
		if err != nil {
			return err
		}
		d, err := tx.Department(u.DepartmentID)
		if err != nil {
			return err
		}
		sess.User, sess.Company, sess.Department = u, c, d
		return nil
	})
	if err != nil {
		return nil, err
	}
	now := s.Now()
	// Tokens carry their issue time to the millisecond, and a token issued
	// at or before the user's revocation time fails. A login in the same
	// millisecond as a revocation (the revoking command returned, the user
	// logged in at once) would give a token that fails at once: its issue
	// time is taken as the first millisecond after the revocation instead.
	if r := sess.User.TokensRevokedAt; !r.IsZero() {
		if first := r.Truncate(time.Millisecond).Add(time.Millisecond); now.Before(first) {
			now = first
		}
	}
	claims := Claims{
		UserID:    sess.User.ID,
		CompanyID: sess.Company.ID,
		TokenID:   NewID(now),
		IssuedAt:  now,
		ExpiresAt: now.Add(s.cfg.TokenTTL),
	}
	tok, err := s.tokens.Issue(claims)
	if err != nil {
		return nil, err
	}
	sess.Token, sess.TokenID, sess.ExpiresIn = tok, claims.TokenID, s.cfg.TokenTTL
	return &sess, nil
}

// Authorize turns an access token into the Principal it speaks for. Returns
// EUNAUTHORIZED for a bad or expired token, and for a token of a user who is
// disabled, deleted or moved to another company since it was issued. The
// user is read with every request, so a revocation is never seen late,
// whatever caches the token's signature check (app/storecache keeps users
// only while no user has been written since).
func (s *Service) Authorize(ctx context.Context, token string) (domain.Principal, error) {
	claims, err := s.VerifyToken(token)
	if err != nil {
		return domain.Principal{}, err
	}
	var p domain.Principal
	err = s.store.View(ctx, func(tx Tx) error {
		u, err := tx.User(claims.UserID)
		if isNotFound(err) {
			u = nil
		} else if err != nil {
			return err
		}
		p, err = AuthorizeUser(claims, u)
		return err
	})
	return p, err
}

// VerifyToken checks an access token's signature and expiry and returns
// its claims: EUNAUTHORIZED for a bad or expired token.
func (s *Service) VerifyToken(token string) (Claims, error) { return s.tokens.Verify(token) }

// AuthorizeUser is the rule of Authorize: the Principal that valid claims
// speak for, given their user as stored (nil when there is none).
// EUNAUTHORIZED for a user deleted, disabled or moved to another company,
// or whose tokens were revoked when or after the token was issued.
func AuthorizeUser(c Claims, u *domain.User) (domain.Principal, error) {
	switch {
	case u == nil:
		return domain.Principal{}, domain.Errorf(domain.EUNAUTHORIZED, "the token's user no longer exists")
	case u.Disabled || u.CompanyID != c.CompanyID:
		return domain.Principal{}, domain.Errorf(domain.EUNAUTHORIZED, "the token's user is disabled")
	case revoked(u, c.IssuedAt):
		return domain.Principal{}, domain.Errorf(domain.EUNAUTHORIZED, "the access token has been revoked")
	}
	return domain.Principal{UserID: u.ID, CompanyID: u.CompanyID, DepartmentID: u.DepartmentID}, nil
}

// Demo user of `serve --demo`.
const (
	DemoCompany = "Demo Construtora"
	DemoEmail   = "demo@costdb.local"
)

// EnsureDemoUser creates the demo user when the store has no user at all and
// returns it with its secret token; it returns nil when users exist already.
func (s *Service) EnsureDemoUser(ctx context.Context) (*NewUser, error) {
	var out *NewUser
	err := s.store.Update(ctx, func(tx Tx) error {
		n, err := tx.CountUsers()
		if err != nil || n > 0 {
			return err
		}
		out, err = addUser(tx, s.now(), NewUserInput{Company: DemoCompany, Email: DemoEmail, Name: "Demo", Department: "Orçamentos"})
		return err
	})
	return out, err
}
