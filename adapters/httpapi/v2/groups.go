package v2

import (
	"net/http"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// groupDoc is a group (a folder of own resources and compositions) as v2
// writes it (JSON:API type "groups").
type groupDoc struct {
	ID          string     `jsonapi:"primary,groups"`
	Description string     `jsonapi:"attr,description"`
	CreatedAt   string     `jsonapi:"attr,created_at"`
	User        *userRef   `jsonapi:"relation,user"`
	Sector      *sectorRef `jsonapi:"relation,sector"`
}

func (h *handlers) groupDoc(g *domain.Group) *groupDoc {
	return &groupDoc{
		ID:          g.ID,
		Description: g.Description,
		CreatedAt:   h.env.FormatTime(g.CreatedAt),
		User:        userOf(g.UserID),
		Sector:      sectorOf(g.DepartmentID),
	}
}

var groupReadOnly = []string{"created_at"}

// listGroups handles GET /my_database/groups: page[number], page[size],
// sort (description, created_at) and filter[description|created_after|
// created_before].
func (h *handlers) listGroups(w http.ResponseWriter, r *http.Request) {
	lq, err := h.parseList(r, ownedRels...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	list, total, err := h.env.App.Groups(r.Context(), principal(r), lq.app)
	if err != nil {
		h.writeError(w, r, asParamErrors(err))
		return
	}
	docs := make([]*groupDoc, len(list))
	for i, g := range list {
		docs[i] = h.groupDoc(g)
	}
	h.writeCompound(w, r, http.StatusOK, docs, lq.page.links(r, total), totalMeta(total), lq.include)
}

// readDescription reads a group's one attribute.
func readDescription(b *attrBody) *string { return read[string](b, aDescription) }

// createGroup handles POST /my_database/groups {description}: 201 with Location.
func (h *handlers) createGroup(w http.ResponseWriter, r *http.Request) {
	b, desc, ok := readPatch(h, w, r, "groups", "", readDescription, groupReadOnly...)
	if !ok {
		return
	}
	g, err := h.env.App.CreateGroup(r.Context(), principal(r), app.GroupInput{Description: deref(desc)})
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, g.ID))
	h.writeDoc(w, r, http.StatusCreated, h.groupDoc(g))
}

// getGroup handles GET /my_database/groups/{id} (include=user,sector).
func (h *handlers) getGroup(w http.ResponseWriter, r *http.Request) {
	_, inc, err := readQuery(r, ownedRels)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	g, err := h.env.App.Group(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, h.groupDoc(g), inc)
}

// updateGroup handles PATCH /my_database/groups/{id}. A body that does not
// name the description changes nothing and answers the group as it is.
func (h *handlers) updateGroup(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	b, desc, ok := readPatch(h, w, r, "groups", id, readDescription, groupReadOnly...)
	if !ok {
		return
	}
	var g *domain.Group
	var err error
	if desc == nil {
		g, err = h.env.App.Group(r.Context(), principal(r), id)
	} else {
		g, err = h.env.App.UpdateGroup(r.Context(), principal(r), id, app.GroupInput{Description: *desc})
	}
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.groupDoc(g))
}

// deleteGroup handles DELETE /my_database/groups/{id}: 204, or 409 while
// resources or compositions belong to the group.
func (h *handlers) deleteGroup(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteGroup(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	noContent(w)
}
