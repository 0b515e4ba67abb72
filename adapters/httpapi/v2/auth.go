package v2

import (
	"net/http"

	"github.com/google/jsonapi"
)

// accessToken is the document of POST /authenticate.
type accessToken struct {
	ID               string `jsonapi:"primary,access-tokens"`
	AccessToken      string `jsonapi:"attr,access_token"`
	ExpiresInSeconds int64  `jsonapi:"attr,expires_in_seconds"`
}

// authUser is meta.user of the authenticate answer.
type authUser struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Email       string `json:"email"`
	CompanyName string `json:"company_name"`
	CompanyID   string `json:"company_id"`
}

// authenticate handles POST /authenticate {email, secret_token}: 200 with an
// access token, 401 for bad credentials (saying nothing of which part was
// wrong), 429 after too many failures.
func (h *handlers) authenticate(w http.ResponseWriter, r *http.Request) {
	b := h.readAttrs(w, r, "access-tokens", "")
	if b == nil {
		return
	}
	email := read[string](b, attr{app: "email", names: []string{"email"}, kind: "string"})
	secret := read[string](b, attr{app: "secret_token", names: []string{"secret_token"}, kind: "string"})
	if err := b.finish(); err != nil {
		h.writeError(w, r, err)
		return
	}
	s, err := h.env.Login(r, deref(email), deref(secret))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	doc := &accessToken{ID: s.TokenID, AccessToken: s.Token, ExpiresInSeconds: int64(s.ExpiresIn.Seconds())}
	meta := &jsonapi.Meta{"user": authUser{
		ID: s.User.ID, Name: s.User.Name, Email: s.User.Email,
		CompanyName: s.Company.Name, CompanyID: s.Company.ID,
	}}
	h.writeDocWith(w, r, http.StatusOK, doc, nil, meta)
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
