package v2

import (
	"net/http"

	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// userDoc is a user of the caller's company as v2 writes it (JSON:API type
// "users", what every record's `user` relationship names): its name and
// e-mail address, and its sector. Nothing else of a user (its secret, its
// state) is ever shown.
type userDoc struct {
	ID     string     `jsonapi:"primary,users"`
	Name   string     `jsonapi:"attr,name"`
	Email  string     `jsonapi:"attr,email"`
	Sector *sectorRef `jsonapi:"relation,sector"`
}

func userDocOf(u *domain.User) *userDoc {
	return &userDoc{ID: u.ID, Name: u.Name, Email: u.Email, Sector: sectorOf(u.DepartmentID)}
}

// sectorDoc is a sector, which is a department of the caller's company
// (JSON:API type "sectors", what every record's `sector` relationship
// names): its name.
type sectorDoc struct {
	ID   string `jsonapi:"primary,sectors"`
	Name string `jsonapi:"attr,name"`
}

func sectorDocOf(d *domain.Department) *sectorDoc {
	return &sectorDoc{ID: d.ID, Name: d.Name}
}

// getUser handles GET /users/{id} (include=sector): a user of the caller's
// company; another company's user is 404, as a missing one.
func (h *handlers) getUser(w http.ResponseWriter, r *http.Request) {
	_, inc, err := readQuery(r, userRels)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	u, err := h.env.App.User(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, userDocOf(u), inc)
}

// getSector handles GET /sectors/{id}: a department of the caller's
// company; another company's is 404.
func (h *handlers) getSector(w http.ResponseWriter, r *http.Request) {
	if _, _, err := readQuery(r, nil); err != nil {
		h.writeError(w, r, err)
		return
	}
	d, err := h.env.App.Department(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, sectorDocOf(d), nil)
}
