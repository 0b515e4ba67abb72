package v2

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// Search across the reference banks (issue 28):
//
//	GET /search?q=bloco ceramico 14x19&bank=SINAPI&state=MG&kind=composition&edition=all&page[number]=1&page[size]=20
//
// answers a page of "search_hits" in the order app.Service.Search ranks
// them, each naming its bank item (relationship "item", whose related link
// is the item's URL under /banks) and its edition (relationship "bank").
// Reference data: any authenticated caller, whatever its company.
const searchHitsType = "search_hits"

// searchPath is the route.
const searchPath = "/search"

// searchHitFields are a hit's attributes and relationships (fields[search_hits]).
var searchHitFields = []string{"bank", "code", "description", "item", "kind", "matched", "month", "region", "regimes", "state", "unit", "words"}

func init() {
	typeFields[searchHitsType] = slices.Sorted(slices.Values(searchHitFields))
}

// search handles GET /search.
func (h *handlers) search(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "q", "bank", "state", "kind", "edition", "page[number]", "page[size]")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	pg, errs := pageOf(q)
	in := app.SearchInput{Q: q.Get("q"), Bank: q.Get("bank"), State: q.Get("state"), Kind: q.Get("kind"), Page: pg.window()}
	if _, given := q["q"]; !given {
		errs = append(errs, &paramError{Param: "q", Message: "is required: the words to search for"})
		in.Q = "required" // reported above; the others are still checked
	}
	switch q.Get("edition") {
	case "", "newest":
	case "all":
		in.AllEditions = true
	default:
		errs = append(errs, &paramError{Param: "edition", Message: "must be newest (the newest edition of each bank and state, the default) or all"})
	}
	if len(errs) > 0 {
		if perr, ok := invalidAsParams(app.CheckSearch(in)).(paramErrors); ok {
			errs = append(errs, perr...)
		}
		h.writeError(w, r, errs)
		return
	}
	items, total, err := h.env.App.Search(r.Context(), in)
	if err != nil {
		h.writeError(w, r, invalidAsParams(err))
		return
	}
	base := apiBase(r)
	nodes := make([]*jsonapi.Node, len(items))
	for i, it := range items {
		nodes[i] = searchHitNode(base, it)
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Links: pg.links(r, total), Meta: totalMeta(total)})
}

// searchHitNode is a hit as a "search_hits" resource: its id is its bank
// item's.
func searchHitNode(base string, it *app.SearchItem) *jsonapi.Node {
	ref := it.Edition.Ref()
	bi := &app.BankItem{Edition: ref, Kind: it.Kind, Code: it.Code}
	regimes := make([]string, len(it.Edition.Regimes))
	for i, g := range it.Edition.Regimes {
		regimes[i] = g.String()
	}
	kindParam := string(domain.KindResource)
	if it.Kind == domain.KindComposition {
		kindParam = string(domain.KindComposition)
	}
	itemURL := base + "/banks/" + url.PathEscape(app.EditionID(ref)) + "/items/" + url.PathEscape(it.Code) + "?kind=" + kindParam
	return &jsonapi.Node{
		Type: searchHitsType,
		ID:   bankItemID(bi),
		Attributes: map[string]any{
			"bank":        it.Edition.Bank,
			"state":       it.Edition.State,
			"month":       it.Edition.Month,
			"region":      it.Edition.Region,
			"regimes":     regimes,
			"kind":        string(it.Kind),
			"code":        it.Code,
			"description": it.Description,
			"unit":        it.Unit,
			"matched":     it.Matched,
			"words":       it.Terms,
		},
		Relationships: map[string]any{
			"item": &jsonapi.RelationshipOneNode{
				Data:  &jsonapi.Node{Type: bankItemsType, ID: bankItemID(bi)},
				Links: &jsonapi.Links{"related": itemURL},
			},
			"bank": &jsonapi.RelationshipOneNode{Data: &jsonapi.Node{Type: banksType, ID: app.EditionID(ref)}},
		},
	}
}
