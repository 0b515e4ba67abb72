package v2

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// The bank catalogue: the imported editions of the reference banks (JSON:API
// type "banks") and their items (type "bank_items"). Reference banks are
// shared by every company: any authenticated caller reads them.
//
//   - A bank's id is app.EditionID: "SINAPI-MG-2026-08" (bank, state, year,
//     month; "~" and the region in base64url when the edition has one).
//   - A bank item's id is "<bank id>:<C|R>:<code>" ("SINAPI-MG-2026-08:C:89306"):
//     the same code may be a composition and a resource of one edition.
const (
	banksType     = "banks"
	bankItemsType = "bank_items"
)

// listBanks handles GET /banks: a page of the imported editions; sort and
// filter[…] on the fields app.Service.Editions names.
func (h *handlers) listBanks(w http.ResponseWriter, r *http.Request) {
	lq, err := h.parseList(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	eds, total, err := h.env.App.Editions(r.Context(), lq.app)
	writeNodeList(h, w, r, lq.page, eds, total, err, func(e *domain.Edition, base string) *jsonapi.Node {
		return h.bankNode(e, base+"/"+app.EditionID(e.Ref()))
	})
}

// writeNodeList answers a page of a list whose documents are built by hand:
// each item's node (node gives it, with its self link under the list's
// path base), the links to the other pages and the total in meta; or the
// list's error, a bad filter or sort being its parameter's 400.
func writeNodeList[T any](h *handlers, w http.ResponseWriter, r *http.Request, page pageQuery, items []T, total int, err error,
	node func(it T, base string) *jsonapi.Node) {
	if err != nil {
		h.writeError(w, r, asParamErrors(err))
		return
	}
	base := strings.TrimSuffix(r.URL.Path, "/")
	nodes := make([]*jsonapi.Node, len(items))
	for i, it := range items {
		nodes[i] = node(it, base)
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Links: page.links(r, total), Meta: totalMeta(total)})
}

// getBank handles GET /banks/{id}: one edition; 404 for an id that names no
// imported edition.
func (h *handlers) getBank(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	ed, err := h.env.App.EditionByID(r.Context(), pathParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	self := path[:strings.LastIndexByte(path, '/')+1] + app.EditionID(ed.Ref())
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.bankNode(ed, self)})
}

// listBankItems handles GET /banks/{id}/items: a page of the edition's
// resources and compositions, without structures; sort and filter[…] on the
// fields app.Service.BankItems names.
func (h *handlers) listBankItems(w http.ResponseWriter, r *http.Request) {
	lq, err := h.parseList(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	ed, err := h.env.App.EditionByID(r.Context(), pathParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	items, total, err := h.env.App.BankItems(r.Context(), ed.Ref(), lq.app)
	writeNodeList(h, w, r, lq.page, items, total, err, func(it *app.BankItem, base string) *jsonapi.Node {
		return bankItemNode(it, base+"/"+url.PathEscape(it.Code))
	})
}

// getBankItem handles GET /banks/{id}/items/{code}[?kind=resource|composition]:
// the item with its prices and, for a composition, its published structure.
// Without kind, a code that is both a composition and a resource answers the
// composition (as v1 items resolve a code).
func (h *handlers) getBankItem(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "kind")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	kind := domain.ItemKind(q.Get("kind"))
	if _, given := q["kind"]; given && kind != domain.KindResource && kind != domain.KindComposition {
		h.writeError(w, r, paramErrors{{Param: "kind", Message: "must be resource or composition"}})
		return
	}
	ed, err := h.env.App.EditionByID(r.Context(), pathParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	it, err := h.env.App.BankItem(r.Context(), ed.Ref(), pathParam(r, "code"), kind)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	path := r.URL.Path
	items := path[:strings.LastIndex(path, "/items/")+len("/items/")]
	node := bankItemNode(it, items+url.PathEscape(it.Code))
	if it.Kind == domain.KindComposition {
		node.Attributes["structure"] = structureDocs(it.Structure)
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: node})
}

// pathParam is a path parameter, percent-decoded: chi hands it over still
// escaped when the path had escapes Go would not have made (a code with
// "/", sent as %2F).
func pathParam(r *http.Request, name string) string {
	v := chi.URLParam(r, name)
	if r.URL.RawPath != "" {
		if u, err := url.PathUnescape(v); err == nil {
			return u
		}
	}
	return v
}

// bankNode is an edition as a "banks" resource; self is its URL. Its items
// are the related link of the relationship "items" (the official JSON:API
// schema allows a resource no link but self).
func (h *handlers) bankNode(e *domain.Edition, self string) *jsonapi.Node {
	regimes := make([]string, len(e.Regimes))
	for i, g := range e.Regimes {
		regimes[i] = g.String()
	}
	return &jsonapi.Node{
		Type: banksType,
		ID:   app.EditionID(e.Ref()),
		Attributes: map[string]any{
			"name":         e.Bank,
			"location":     e.State,
			"version":      e.Month,
			"region":       e.Region,
			"regimes":      regimes,
			"resources":    e.Resources,
			"compositions": e.Compositions,
			"structures":   e.Structures,
			"source":       e.Source,
			"imported_at":  h.env.FormatTime(e.ImportedAt),
			"files":        sourceFiles(e.Files),
		},
		Relationships: map[string]any{
			"items": relatedOnly{Links: jsonapi.Links{"related": self + "/items"}},
		},
		Links: &jsonapi.Links{"self": self},
	}
}

// relatedOnly is a relationship given by its related link alone (an
// edition's items are too many to list as data).
type relatedOnly struct {
	Links jsonapi.Links `json:"links"`
}

// resourcePricesDoc are a bank resource's four prices: pnd/pd productive
// (for equipment, the operating hourly cost), pndi/pdi idle.
// A price the edition did not publish (a record of one regime only) is null.
type resourcePricesDoc struct {
	PND  *json.Number `json:"pnd"`
	PD   *json.Number `json:"pd"`
	PNDI *json.Number `json:"pndi"`
	PDI  *json.Number `json:"pdi"`
}

// compositionPricesDoc is a bank composition's published unit cost.
type compositionPricesDoc struct {
	PND *json.Number `json:"pnd"` // null when not published (SICRO gives no desonerado cost)
	PD  *json.Number `json:"pd"`
}

// structureDoc is one item of a published composition structure.
type structureDoc struct {
	Position    int          `json:"position"`
	Kind        string       `json:"kind"`
	Code        string       `json:"code"`
	Description string       `json:"description"`
	Type        string       `json:"type"`
	Unit        string       `json:"unit"`
	Coefficient json.Number  `json:"coefficient"`
	UnitaryPND  *json.Number `json:"unitary_pnd"` // null when missing
	UnitaryPD   *json.Number `json:"unitary_pd"`
	Missing     bool         `json:"missing"`
}

// bankItemID is the id of a bank item: "<bank id>:<C|R>:<code>".
func bankItemID(it *app.BankItem) string {
	k := "R"
	if it.Kind == domain.KindComposition {
		k = "C"
	}
	return app.EditionID(it.Edition) + ":" + k + ":" + it.Code
}

// bankItemNode is an item as a "bank_items" resource, without its
// structure; url is its URL without the kind, which self adds.
func bankItemNode(it *app.BankItem, url string) *jsonapi.Node {
	orNull := httpapi.NumOrNull
	attrs := map[string]any{
		"kind":        string(it.Kind),
		"code":        it.Code,
		"description": it.Description,
		"unit":        it.Unit,
	}
	if it.Kind == domain.KindResource {
		attrs["resource_type"] = it.ResourceType
		nd, d := it.Unpriced[domain.NaoDesonerado], it.Unpriced[domain.Desonerado]
		attrs["prices"] = resourcePricesDoc{PND: orNull(it.Prices.PND, nd), PD: orNull(it.Prices.PD, d), PNDI: orNull(it.Prices.PNDI, nd), PDI: orNull(it.Prices.PDI, d)}
	} else {
		attrs["composition_type"] = it.Class
		attrs["prices"] = compositionPricesDoc{PND: orNull(it.Prices.PND, it.Unpriced[domain.NaoDesonerado]), PD: orNull(it.Prices.PD, it.Unpriced[domain.Desonerado])}
		attrs["structure_items"] = it.StructureItems
	}
	return &jsonapi.Node{
		Type:       bankItemsType,
		ID:         bankItemID(it),
		Attributes: attrs,
		Relationships: map[string]any{
			"bank": &jsonapi.RelationshipOneNode{Data: &jsonapi.Node{Type: banksType, ID: app.EditionID(it.Edition)}},
		},
		Links: &jsonapi.Links{"self": url + "?kind=" + string(it.Kind)},
	}
}

// structureDocs maps a composition's published structure ([] when it was
// not imported).
func structureDocs(lines []app.StructureLine) []structureDoc {
	out := make([]structureDoc, len(lines))
	for i, l := range lines {
		out[i] = structureDoc{
			Position: i + 1, Kind: string(l.Kind), Code: l.Code, Description: l.Description,
			Type: l.TypeText(), Unit: l.Unit, Coefficient: httpapi.Num(l.Coefficient),
			UnitaryPND: httpapi.NumOrNull(l.UnitPrice.PND, l.Unpriced[domain.NaoDesonerado]),
			UnitaryPD:  httpapi.NumOrNull(l.UnitPrice.PD, l.Unpriced[domain.Desonerado]), Missing: l.Missing,
		}
	}
	return out
}

// writeNodes writes a document built by hand (a *jsonapi.OnePayload or
// *jsonapi.ManyPayload) with status 200.
func (h *handlers) writeNodes(w http.ResponseWriter, r *http.Request, p any) {
	h.writeNodesStatus(w, r, http.StatusOK, p)
}

// writeNodesStatus is writeNodes with another status (201 for a record
// created).
func (h *handlers) writeNodesStatus(w http.ResponseWriter, r *http.Request, st int, p any) {
	switch p := p.(type) {
	case *jsonapi.OnePayload:
		linkRelationships(apiBase(r), []*jsonapi.Node{p.Data})
		sparseNodes(fieldsOf(r), p.Data)
	case *jsonapi.ManyPayload:
		linkRelationships(apiBase(r), p.Data)
		sparseNodes(fieldsOf(r), p.Data...)
	}
	h.writeJSON(w, r, st, p)
}

// sourceFiles are an edition's files as the API gives them: [] for none.
func sourceFiles(f []domain.SourceFile) []domain.SourceFile {
	if f == nil {
		return []domain.SourceFile{}
	}
	return f
}
