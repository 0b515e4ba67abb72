package v1

import (
	"encoding/json"
	"net/http"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
)

// referenceResourceBody is a reference-bank resource (insumo) as
// GET /resources/find_by_code shows it: the resource, the edition it was
// found in (bank, state, version, region when it has one, and the edition's
// id) and its prices, as `locals` keyed by the edition's state, the shape a
// v1 resource record gives its prices.
type referenceResourceBody struct {
	Code        string                    `json:"code"`
	Description string                    `json:"description"`
	Type        int                       `json:"type"`
	Unit        string                    `json:"unit"`
	Bank        string                    `json:"bank"`
	State       string                    `json:"state"`
	Version     string                    `json:"version"`
	Region      string                    `json:"region,omitempty"`
	EditionID   string                    `json:"edition_id"`
	Locals      map[string]referencePrice `json:"locals"`
	IsResource  bool                      `json:"is_resource"`
}

type referencePrice struct {
	PND  json.Number `json:"pnd"`
	PD   json.Number `json:"pd"`
	PNDI json.Number `json:"pndi"`
	PDI  json.Number `json:"pdi"`
}

// findReferenceResource answers
// GET /resources/find_by_code?code=[&state=&bank=&version=]: the reference
// bank resource with the code, from the best imported edition that has it
// (the editions of `state` first, then the newest month; bank and version
// narrow the editions). 422 for a missing code, a bad state or version; 404
// when no edition has it.
func (h *handler) findReferenceResource(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	it, err := h.env.App.ReferenceResource(r.Context(), app.ReferenceQuery{
		Code: q.Get("code"), State: q.Get("state"), Bank: q.Get("bank"), Version: q.Get("version"),
	})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	num := httpapi.Num
	ed := it.Edition
	h.write(w, http.StatusOK, referenceResourceBody{
		Code: it.Code, Description: it.Description, Type: it.ResourceType, Unit: it.Unit,
		Bank: ed.Name, State: ed.State, Version: ed.Month, Region: ed.Region, EditionID: app.EditionID(ed),
		Locals: map[string]referencePrice{ed.State: {
			PND: num(it.Prices.PND), PD: num(it.Prices.PD), PNDI: num(it.Prices.PNDI), PDI: num(it.Prices.PDI),
		}},
		IsResource: true,
	})
}
