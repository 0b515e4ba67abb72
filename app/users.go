package app

import (
	"context"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// UserSelector names the users an account command acts on: one user by
// e-mail, or every user of a company (by name or id). Exactly one is given.
type UserSelector struct {
	Email   string
	Company string
}

// UserInfo is a user as `users list` shows it: never its secret.
type UserInfo struct {
	ID              string    `json:"user_id"`
	Email           string    `json:"email"`
	Name            string    `json:"name"`
	CompanyID       string    `json:"company_id"`
	Company         string    `json:"company"`
	DepartmentID    string    `json:"department_id"`
	Department      string    `json:"department"`
	Disabled        bool      `json:"disabled"`
	CreatedAt       time.Time `json:"created_at"`
	TokensRevokedAt time.Time `json:"tokens_revoked_at,omitzero"`
}

// ListUsers lists the users the selector names; an empty selector lists
// every user. ENOTFOUND for an unknown e-mail or company.
func (s *Service) ListUsers(ctx context.Context, sel UserSelector) ([]UserInfo, error) {
	var out []UserInfo
	err := s.store.View(ctx, func(tx Tx) error {
		var users []*domain.User
		var err error
		if sel.Email == "" && sel.Company == "" {
			users, err = tx.Users("")
		} else {
			users, err = selectUsers(tx, sel)
		}
		if err != nil {
			return err
		}
		out = make([]UserInfo, 0, len(users))
		companies := map[string]string{}
		for _, u := range users {
			info := UserInfo{ID: u.ID, Email: u.Email, Name: u.Name, CompanyID: u.CompanyID, DepartmentID: u.DepartmentID,
				Disabled: u.Disabled, CreatedAt: u.CreatedAt, TokensRevokedAt: u.TokensRevokedAt}
			name, ok := companies[u.CompanyID]
			if !ok {
				if c, err := tx.Company(u.CompanyID); err == nil {
					name = c.Name
				}
				companies[u.CompanyID] = name
			}
			info.Company = name
			if d, err := tx.Department(u.DepartmentID); err == nil {
				info.Department = d.Name
			}
			out = append(out, info)
		}
		return nil
	})
	return out, err
}

// selectUsers resolves a selector inside a transaction.
func selectUsers(tx Tx, sel UserSelector) ([]*domain.User, error) {
	email, company := strings.TrimSpace(sel.Email), strings.TrimSpace(sel.Company)
	switch {
	case (email == "") == (company == ""):
		return nil, domain.Errorf(domain.EINVALID, "give either an e-mail or a company")
	case email != "":
		u, err := tx.UserByEmail(domain.NormalizeEmail(email))
		if err != nil {
			return nil, err
		}
		return []*domain.User{u}, nil
	}
	c, err := tx.CompanyByName(company)
	if isNotFound(err) {
		c, err = tx.Company(company)
	}
	if isNotFound(err) {
		return nil, domain.Errorf(domain.ENOTFOUND, "company %q not found", company)
	} else if err != nil {
		return nil, err
	}
	return tx.Users(c.ID)
}

// SetUsersDisabled disables or enables the users the selector names and
// returns how many it changed. Disabling also revokes every token the users
// hold, so that enabling them later does not bring old tokens back.
func (s *Service) SetUsersDisabled(ctx context.Context, sel UserSelector, disabled bool) (int, error) {
	return s.updateUsers(ctx, sel, func(u *domain.User, now time.Time) {
		u.Disabled = disabled
		if disabled {
			u.TokensRevokedAt = now
		}
	})
}

// RevokeTokens makes every access token issued so far to the users the
// selector names fail on its next use, and returns how many users it
// changed. Their secrets still work: they authenticate again.
func (s *Service) RevokeTokens(ctx context.Context, sel UserSelector) (int, error) {
	return s.updateUsers(ctx, sel, func(u *domain.User, now time.Time) { u.TokensRevokedAt = now })
}

// ResetSecret gives the user with the e-mail a new secret token, returned
// once, and revokes the tokens issued with the old one.
func (s *Service) ResetSecret(ctx context.Context, email string) (*NewUser, error) {
	var out *NewUser
	err := s.store.Update(ctx, func(tx Tx) error {
		if strings.TrimSpace(email) == "" {
			return domain.Errorf(domain.EINVALID, "give the user's e-mail")
		}
		u, err := tx.UserByEmail(domain.NormalizeEmail(email))
		if err != nil {
			return err
		}
		secret, hash, err := newSecret()
		if err != nil {
			return err
		}
		u.SecretHash, u.TokensRevokedAt = hash, s.Now()
		if err := tx.PutUser(u); err != nil {
			return err
		}
		c, err := tx.Company(u.CompanyID)
		if err != nil {
			return err
		}
		d, err := tx.Department(u.DepartmentID)
		if err != nil {
			return err
		}
		out = &NewUser{User: u, Company: c, Department: d, SecretToken: secret}
		return nil
	})
	return out, err
}

func (s *Service) updateUsers(ctx context.Context, sel UserSelector, change func(*domain.User, time.Time)) (int, error) {
	n := 0
	err := s.store.Update(ctx, func(tx Tx) error {
		users, err := selectUsers(tx, sel)
		if err != nil {
			return err
		}
		now := s.Now()
		for _, u := range users {
			change(u, now)
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		n = len(users)
		return nil
	})
	return n, err
}

// revoked reports whether a token issued at iat is revoked for u. Tokens
// carry their issue time to the millisecond (older ones to the second); a
// token issued at or before the revocation time fails.
func revoked(u *domain.User, iat time.Time) bool {
	return !u.TokensRevokedAt.IsZero() && !iat.After(u.TokensRevokedAt)
}
