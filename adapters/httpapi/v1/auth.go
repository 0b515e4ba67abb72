package v1

import (
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
)

// loginRequest is the body of POST /login/authenticate_user.
type loginRequest struct {
	Email       string `json:"email"`
	SecretToken string `json:"secret_token"`
}

// loginResponse is its answer. company and department repeat, as objects,
// what user carries: real v1 clients read the company's id from
// company.id (or a top-level company_id) and refuse a login without it.
type loginResponse struct {
	AuthToken  string    `json:"auth_token"`
	User       loginUser `json:"user"`
	Company    loginRef  `json:"company"`
	Department loginRef  `json:"department"`
}

// loginRef names the company or department of the login.
type loginRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type loginUser struct {
	ID                    string `json:"id"`
	Email                 string `json:"email"`
	Name                  string `json:"name"`
	CompanyName           string `json:"company_name"`
	CompanyID             string `json:"company_id"`
	DepartmentID          string `json:"department_id"`
	TokenTimeoutInSeconds int64  `json:"token_timeout_in_seconds"`
}

// login exchanges an e-mail and secret token for an access token. Bad
// credentials are a 401 that does not say which part was wrong; repeated
// failures are slowed (429) by the Env's limiter.
func (h *handler) login(w http.ResponseWriter, r *http.Request) {
	var in loginRequest
	if err := httpapi.DecodeJSON(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	s, err := h.env.Login(r, in.Email, in.SecretToken)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, loginResponse{
		AuthToken: s.Token,
		User: loginUser{
			ID:                    s.User.ID,
			Email:                 s.User.Email,
			Name:                  s.User.Name,
			CompanyName:           s.Company.Name,
			CompanyID:             s.Company.ID,
			DepartmentID:          s.Department.ID,
			TokenTimeoutInSeconds: int64(s.ExpiresIn.Seconds()),
		},
		Company:    loginRef{ID: s.Company.ID, Name: s.Company.Name},
		Department: loginRef{ID: s.Department.ID, Name: s.Department.Name},
	})
}
