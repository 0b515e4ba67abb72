package v2

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// A reference bank's change log (Caixa's manutenções, docs/importing.md),
// read by every user, and where the caller's company uses what changed:
//
//	GET /bank_changes?filter[bank]=SINAPI&filter[month]=12/2025[&filter[kind]=deactivated,unit][&filter[code]=…]
//	GET /bank_changes/where_used?filter[bank]=…&filter[month]=…[&filter[kind]=…][&filter[code]=…]
const (
	bankChangesPath = "/bank_changes"
	whereUsedPath   = bankChangesPath + "/where_used"
)

// bankChangeDoc is one line of a change log; its id is the bank, the month
// and the line's place in that month's log.
type bankChangeDoc struct {
	ID          string `jsonapi:"primary,bank-changes"`
	Bank        string `jsonapi:"attr,bank"`
	Month       string `jsonapi:"attr,month"`
	State       string `jsonapi:"attr,state"`
	Item        string `jsonapi:"attr,item"`
	Code        string `jsonapi:"attr,code"`
	Description string `jsonapi:"attr,description"`
	Kind        string `jsonapi:"attr,kind"`
	Text        string `jsonapi:"attr,text"`
}

// changeAttrs are a change's attributes, as the member change of a
// bank-change-uses record.
type changeAttrs struct {
	Bank        string `json:"bank"`
	Month       string `json:"month"`
	State       string `json:"state"`
	Item        string `json:"item"`
	Code        string `json:"code"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
	Text        string `json:"text"`
}

// useRefDoc names a record of the caller's company.
type useRefDoc struct {
	ID          string `json:"id"`
	Code        string `json:"code"`
	Description string `json:"description"`
}

// bankChangeUseDoc is a change the caller's company is touched by: the
// change, and its own compositions and budgets that use the code.
type bankChangeUseDoc struct {
	ID           string      `jsonapi:"primary,bank-change-uses"`
	Change       changeAttrs `jsonapi:"attr,change"`
	Compositions []useRefDoc `jsonapi:"attr,compositions"`
	Budgets      []useRefDoc `jsonapi:"attr,budgets"`
	Contracts    []useRefDoc `jsonapi:"attr,contracts"`
}

// changeItem names what a change is about: a resource (insumo) or a
// composition.
func changeItem(c domain.BankChange) string {
	if c.Composition {
		return string(domain.KindComposition)
	}
	return string(domain.KindResource)
}

// changeID is a change's id: "SINAPI:2025-12:17" (its place in the log of
// its month, from 1).
func changeID(c domain.BankChange, place int) string {
	mm, yyyy, _ := strings.Cut(c.Month, "/")
	return c.Bank + ":" + yyyy + "-" + mm + ":" + strconv.Itoa(place)
}

func newBankChangeDoc(pc app.PlacedChange) bankChangeDoc {
	c := pc.BankChange
	return bankChangeDoc{ID: changeID(c, pc.Place), Bank: c.Bank, Month: c.Month, State: c.State, Item: changeItem(c),
		Code: c.Code, Description: c.Description, Kind: string(c.Kind), Text: c.Text}
}

// changeQuery reads the filters both routes take; the app checks their
// values (bank and month required, kinds known), answered as 400 naming
// the parameter.
func changeQuery(q url.Values) app.ChangeQuery {
	cq := app.ChangeQuery{Bank: strings.TrimSpace(q.Get("filter[bank]")), Month: strings.TrimSpace(q.Get("filter[month]")),
		Code: strings.TrimSpace(q.Get("filter[code]"))}
	if k := q.Get("filter[kind]"); k != "" {
		for _, s := range strings.Split(k, ",") {
			cq.Kinds = append(cq.Kinds, domain.ChangeKind(strings.TrimSpace(s)))
		}
	}
	return cq
}

// changeParamErrors answers the app's field errors of a change query as
// 400s naming the query parameters ("/month" → filter[month]).
func changeParamErrors(err error) error {
	if domain.ErrorCode(err) != domain.EINVALID {
		return err
	}
	var out paramErrors
	for _, f := range domain.ErrorFields(err) {
		name, _, _ := strings.Cut(strings.TrimPrefix(f.Field, "/"), "/")
		param := "filter[" + name + "]"
		if name == "offset" {
			param = "page[number]"
		}
		out = append(out, &paramError{Param: param, Message: f.Message})
	}
	return out
}

var changeFilters = []string{"filter[bank]", "filter[month]", "filter[kind]", "filter[code]"}

// listBankChanges handles GET /bank_changes: a page of a bank's change log
// of a month, in the log's order.
func (h *handlers) listBankChanges(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, append([]string{"page[number]", "page[size]"}, changeFilters...)...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	pg, perrs := pageOf(q)
	if len(perrs) > 0 {
		h.writeError(w, r, perrs)
		return
	}
	cq := changeQuery(q)
	win := pg.window()
	cq.Offset, cq.Limit = win.Offset, win.Limit
	changes, total, err := h.env.App.Changes(r.Context(), cq)
	if err != nil {
		h.writeError(w, r, changeParamErrors(err))
		return
	}
	docs := make([]*bankChangeDoc, len(changes))
	for i, c := range changes {
		d := newBankChangeDoc(c)
		docs[i] = &d
	}
	h.writeDocWith(w, r, http.StatusOK, docs, pg.links(r, total), totalMeta(total))
}

// bankChangesWhereUsed handles GET /bank_changes/where_used: the changes of
// the month the filters select that touch the caller's company, each with
// its own compositions and budgets that use the code (records of other
// companies are never read).
func (h *handlers) bankChangesWhereUsed(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, changeFilters...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	uses, err := h.env.App.WhereUsed(r.Context(), principal(r), changeQuery(q))
	if err != nil {
		h.writeError(w, r, changeParamErrors(err))
		return
	}
	refs := func(rs []app.UseRef) []useRefDoc {
		out := make([]useRefDoc, len(rs))
		for i, u := range rs {
			out[i] = useRefDoc{ID: u.ID, Code: u.Code, Description: u.Description}
		}
		return out
	}
	docs := make([]*bankChangeUseDoc, len(uses))
	for i, u := range uses {
		c := newBankChangeDoc(u.Change)
		attrs := changeAttrs{Bank: c.Bank, Month: c.Month, State: c.State, Item: c.Item, Code: c.Code, Description: c.Description, Kind: c.Kind, Text: c.Text}
		docs[i] = &bankChangeUseDoc{ID: c.ID, Change: attrs, Compositions: refs(u.Compositions), Budgets: refs(u.Budgets),
			Contracts: refs(u.Contracts)}
	}
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &jsonapi.Meta{"total": len(docs)})
}
