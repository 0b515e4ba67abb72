package v1

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The bank catalogue in v1: the imported editions of the reference banks and
// a lookup of one of their items by code. Reference banks are shared by
// every company: any authenticated caller reads them.

// bankRecord is one imported edition. name, local, version and region are
// what add-bases takes, so a record can be sent back as a base; id is the
// edition's id in v2 (/api/public/v2/banks/{id}).
type bankRecord struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Local        string   `json:"local"`
	Version      string   `json:"version"`
	Region       string   `json:"region"`
	Regimes      []string `json:"regimes"`
	Resources    int      `json:"resources"`
	Compositions int      `json:"compositions"`
	Structures   int      `json:"structures"`
	Source       string   `json:"source"`
	ImportedAt   string   `json:"imported_at"`
}

func (h *handler) bankRecord(e *domain.Edition) bankRecord {
	regimes := make([]string, len(e.Regimes))
	for i, g := range e.Regimes {
		regimes[i] = g.String()
	}
	return bankRecord{
		ID: app.EditionID(e.Ref()), Name: e.Bank, Local: e.State, Version: e.Month, Region: e.Region,
		Regimes: regimes, Resources: e.Resources, Compositions: e.Compositions, Structures: e.Structures,
		Source: e.Source, ImportedAt: h.env.FormatTime(e.ImportedAt),
	}
}

// bankFilters are the query parameters of GET /banks that filter the list,
// each the app filter of the same name.
var bankFilters = []string{"bank", "state", "version", "region", "regime"}

// listBanks answers GET /banks?page=&per_page=&bank=&state=&version=&region=&regime=:
// the imported editions, by bank, state, month and region. Each filter is
// exact, ignoring case (regime: desonerado or nao-desonerado, the editions
// with that regime's prices); an empty one is ignored; a state that is not
// a UF, a version not MM/YYYY or an unknown regime is 422 naming it.
func (h *handler) listBanks(w http.ResponseWriter, r *http.Request) {
	pg, err := parsePagination(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	q := pg.query(r, false)
	for _, name := range bankFilters {
		if v := strings.TrimSpace(r.URL.Query().Get(name)); v != "" {
			if q.Filters == nil {
				q.Filters = map[string]string{}
			}
			q.Filters[name] = v
		}
	}
	eds, total, err := h.env.App.Editions(r.Context(), q)
	if err != nil {
		h.fail(w, r, filterErrors(err))
		return
	}
	h.write(w, http.StatusOK, envelope(pg, total, eds, h.bankRecord))
}

// filterErrors turns the app's answer to a bad filter (400 naming
// filter[name]) into the v1 answer: 422 naming the query parameter.
func filterErrors(err error) error {
	fields := domain.ErrorFields(err)
	if domain.ErrorCode(err) != domain.EBADREQUEST || len(fields) == 0 {
		return err
	}
	var v domain.Validation
	for _, f := range fields {
		name := strings.TrimSuffix(strings.TrimPrefix(f.Field, "filter["), "]")
		v.Add("/"+name, "%s", f.Message)
	}
	return v.Err()
}

// bankItemBody is an item of a bank edition as v1 shows it: the fields of a
// composition item (banco, code, description, type, unit, unitary_pnd,
// unitary_pd, is_resource) and the edition (estado, data, regiao when it has
// one). A resource adds its idle prices (unitary_pndi, unitary_pdi: for
// equipment the idle hourly cost); a composition adds its published
// structure in items ([] when it was not imported).
type bankItemBody struct {
	Banco       string               `json:"banco"`
	Estado      string               `json:"estado"`
	Data        string               `json:"data"`
	Regiao      string               `json:"regiao,omitempty"`
	Code        string               `json:"code"`
	Description string               `json:"description"`
	Type        string               `json:"type"`
	Unit        string               `json:"unit"`
	UnitaryPND  *json.Number         `json:"unitary_pnd"` // null: the edition published none in the regime
	UnitaryPD   *json.Number         `json:"unitary_pd"`
	UnitaryPNDI json.RawMessage      `json:"unitary_pndi,omitempty"` // a number, or null as unitary_pnd
	UnitaryPDI  json.RawMessage      `json:"unitary_pdi,omitempty"`
	IsResource  bool                 `json:"is_resource"`
	Items       *[]bankStructureBody `json:"items,omitempty"`
}

// bankStructureBody is one item of a published structure: a composition
// item's fields without line totals. An item the edition lacks has an empty
// description, null prices and missing true; a price the edition did not
// publish (one regime only) is null.
type bankStructureBody struct {
	Banco       string       `json:"banco"`
	Code        string       `json:"code"`
	Description string       `json:"description"`
	Type        string       `json:"type"`
	Unit        string       `json:"unit"`
	UnitaryPND  *json.Number `json:"unitary_pnd"` // null when the edition lacks the item
	UnitaryPD   *json.Number `json:"unitary_pd"`
	Coefficient json.Number  `json:"coefficient"`
	IsResource  bool         `json:"is_resource"`
	Missing     bool         `json:"missing,omitempty"` // the edition lacks the item
}

func bankItem(it *app.BankItem) bankItemBody {
	num := httpapi.Num
	out := bankItemBody{
		Banco: it.Edition.Name, Estado: it.Edition.State, Data: it.Edition.Month, Regiao: it.Edition.Region,
		Code: it.Code, Description: it.Description, Type: it.TypeText(), Unit: it.Unit,
		UnitaryPND: httpapi.NumOrNull(it.Prices.PND, it.Unpriced[domain.NaoDesonerado]),
		UnitaryPD:  httpapi.NumOrNull(it.Prices.PD, it.Unpriced[domain.Desonerado]),
		IsResource: it.Kind == domain.KindResource,
	}
	if out.IsResource {
		raw := func(d decimal.Decimal, unpriced bool) json.RawMessage {
			if unpriced {
				return json.RawMessage("null")
			}
			return json.RawMessage(num(d))
		}
		out.UnitaryPNDI = raw(it.Prices.PNDI, it.Unpriced[domain.NaoDesonerado])
		out.UnitaryPDI = raw(it.Prices.PDI, it.Unpriced[domain.Desonerado])
		return out
	}
	items := make([]bankStructureBody, len(it.Structure))
	for i, l := range it.Structure {
		items[i] = bankStructureBody{
			Banco: it.Edition.Name, Code: l.Code, Description: l.Description, Type: l.TypeText(), Unit: l.Unit,
			UnitaryPND:  httpapi.NumOrNull(l.UnitPrice.PND, l.Unpriced[domain.NaoDesonerado]),
			UnitaryPD:   httpapi.NumOrNull(l.UnitPrice.PD, l.Unpriced[domain.Desonerado]),
			Coefficient: num(l.Coefficient), IsResource: l.Kind == domain.KindResource, Missing: l.Missing,
		}
	}
	out.Items = &items
	return out
}

// bankItemFields names the fields of find_by_code as its query parameters.
var bankItemFields = renamed(map[string]string{"name": "bank", "location": "state"})

// findBankItem answers GET /banks/find_by_code?bank=&state=&version=&region=&code=[&kind=]:
// the item with the code in that edition. Without kind, a code that is both
// a composition and a resource is the composition (as add-items resolves a
// code). bank, state, version and code are required; a missing one, a state
// that is not a UF, a version not MM/YYYY or a kind other than resource or
// composition is 422 naming it; an edition not imported, or a code it does
// not have, is 404.
func (h *handler) findBankItem(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var v domain.Validation
	for _, f := range []struct{ param, field string }{{"bank", "/name"}, {"state", "/location"}, {"version", "/version"}, {"code", "/code"}} {
		if strings.TrimSpace(q.Get(f.param)) == "" {
			v.Add(f.field, "is required")
		}
	}
	if err := v.Err(); err != nil {
		h.failAs(w, r, err, bankItemFields)
		return
	}
	ref := domain.BankRef{Name: q.Get("bank"), State: q.Get("state"), Month: q.Get("version"), Region: q.Get("region")}
	it, err := h.env.App.BankItem(r.Context(), ref, q.Get("code"), domain.ItemKind(q.Get("kind")))
	if err != nil {
		h.failAs(w, r, err, bankItemFields)
		return
	}
	h.write(w, http.StatusOK, bankItem(it))
}
