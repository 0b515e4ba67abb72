package v1

import (
	"context"
	"net/http"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// Read-only views of a reference bank under /base/{bank}/… (any imported
// bank, any case: sinapi, sicro3, emop…), in the shapes of /base/mybase/…:
// list, get and find_by_code of compositions and resources, as v1 clients
// look bank items up. The edition is picked by ?state= (required when the
// bank was imported for several states), ?version= (default: the newest
// edition of that state) and ?region=. A bank record's id is its code.
// Writes are 405: a reference bank is changed only by importing it
// (docs/api.md, "Reference banks under /base/{bank}").

// bankView reads the edition a view request picks. ok false: answered
// (the company's own base spelt in another case is 404 pointing at
// /base/mybase).
func (h *handler) bankView(w http.ResponseWriter, r *http.Request) (app.BankViewQuery, bool) {
	bank := chi.URLParam(r, "bank")
	if strings.EqualFold(bank, domain.BankMyBase) {
		h.fail(w, r, domain.Errorf(domain.ENOTFOUND, "no such route: %s %s (the company's own base is /base/mybase)", r.Method, r.URL.Path))
		return app.BankViewQuery{}, false
	}
	q := r.URL.Query()
	return app.BankViewQuery{Bank: bank, State: q.Get("state"), Version: q.Get("version"), Region: q.Get("region")}, true
}

func (h *handler) listBankCompositions(w http.ResponseWriter, r *http.Request) {
	listBankViews(h, w, r, h.env.App.BankCompositionViews, h.composition)
}

// getBankComposition answers GET /base/{bank}/compositions/{id} (the id is
// the code) and find_by_code?code=.
func (h *handler) getBankComposition(w http.ResponseWriter, r *http.Request) {
	getBankView(h, w, r, h.env.App.BankCompositionView, h.composition)
}

func (h *handler) listBankResources(w http.ResponseWriter, r *http.Request) {
	listBankViews(h, w, r, h.env.App.BankResourceViews, bankResourceRecord)
}

// getBankResource answers GET /base/{bank}/resources/{id} (the id is the
// code) and find_by_code?code=.
func (h *handler) getBankResource(w http.ResponseWriter, r *http.Request) {
	getBankView(h, w, r, h.env.App.BankResourceView, bankResourceRecord)
}

// listBankViews answers a page of a bank's records in mybase's list
// envelope, each written by record.
func listBankViews[V, T any](h *handler, w http.ResponseWriter, r *http.Request,
	list func(context.Context, app.BankViewQuery, app.ListQuery) ([]V, int, error), record func(V) T) {
	bq, ok := h.bankView(w, r)
	if !ok {
		return
	}
	pg, err := parsePagination(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	vs, total, err := list(r.Context(), bq, pg.query(r, true))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, envelope(pg, total, vs, record))
}

// getBankView answers one record of a bank (bankCode), written by record.
func getBankView[V, T any](h *handler, w http.ResponseWriter, r *http.Request,
	get func(context.Context, app.BankViewQuery, string) (V, error), record func(V) T) {
	bq, ok := h.bankView(w, r)
	if !ok {
		return
	}
	v, err := get(r.Context(), bq, bankCode(r))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.write(w, http.StatusOK, record(v))
}

// bankCode is the code a view request names: the {id} of the path, or
// ?code= of find_by_code.
func bankCode(r *http.Request) string {
	if id := chi.URLParam(r, "id"); id != "" {
		return id
	}
	return r.URL.Query().Get("code")
}

func bankResourceRecord(v *app.BankResourceView) resourceRecord {
	return resourceRecord{r: v.Resource, unpriced: v.Unpriced}
}
