package v1

import (
	"net/http"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// groupBody is a group as v1 shows it.
type groupBody struct {
	ID           string `json:"id"`
	CompanyID    string `json:"company_id"`
	UserID       string `json:"user_id"`
	DepartmentID string `json:"department_id"`
	Description  string `json:"description"`
	CreatedAt    string `json:"created_at"`
}

func (h *handler) group(g *domain.Group) groupBody {
	return groupBody{
		ID: g.ID, CompanyID: g.CompanyID, UserID: g.UserID, DepartmentID: g.DepartmentID,
		Description: g.Description, CreatedAt: h.env.FormatTime(g.CreatedAt),
	}
}

// groupRequest is the body of a group create or update. On update, an "id",
// when sent, must be the id in the path; the server-controlled company_id,
// user_id and department_id are ignored.
type groupRequest struct {
	ID          *string `json:"id"`
	Description string  `json:"description"`
}

func (h *handler) listGroups(w http.ResponseWriter, r *http.Request) {
	pg, err := parsePagination(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	gs, total, err := h.env.App.Groups(r.Context(), principal(r), pg.query(r, false))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, envelope(pg, total, gs, h.group))
}

func (h *handler) createGroup(w http.ResponseWriter, r *http.Request) {
	var in groupRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	g, err := svc.CreateGroup(r.Context(), principal(r), app.GroupInput{Description: in.Description})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusCreated, h.group(g))
}

func (h *handler) getGroup(w http.ResponseWriter, r *http.Request) {
	g, err := h.env.App.Group(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, h.group(g))
}

func (h *handler) updateGroup(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var in groupRequest
	svc, ok := h.decode(w, r, &in)
	if !ok {
		return
	}
	if err := checkBodyID(in.ID, id); err != nil {
		h.fail(w, r, err)
		return
	}
	g, err := svc.UpdateGroup(r.Context(), principal(r), id, app.GroupInput{Description: in.Description})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, h.group(g))
}

func (h *handler) deleteGroup(w http.ResponseWriter, r *http.Request) {
	if err := h.env.App.DeleteGroup(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, deleted)
}
