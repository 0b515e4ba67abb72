package v2

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Price history (docs/budgets.md, "Price history"):
//
//	GET /price_history/{code}?bank=SINAPI&location=MG[&kind=composition][&desonerado=true][&format=csv]
//	GET /price_history/{code}/chart.svg?…
//
// JSON:API type "price-histories", id "<bank>:<location>:<kind>:<code>:<nd|d>".

// pricePointDoc is one edition's price.
type pricePointDoc struct {
	Version string       `json:"version"`
	Region  string       `json:"region,omitempty"`
	Price   *json.Number `json:"price"`
	Priced  bool         `json:"priced"`
}

type historyDoc struct {
	ID          string          `jsonapi:"primary,price-histories"`
	Bank        string          `jsonapi:"attr,bank"`
	Location    string          `jsonapi:"attr,location"`
	Code        string          `jsonapi:"attr,code"`
	Kind        string          `jsonapi:"attr,kind"`
	Desonerado  bool            `jsonapi:"attr,desonerado"`
	Description string          `jsonapi:"attr,description"`
	Unit        string          `jsonapi:"attr,unit"`
	Points      []pricePointDoc `jsonapi:"attr,points"`
}

// historyQuery reads the query of a price history (400 naming each bad
// parameter).
func historyQuery(r *http.Request, extra ...string) (app.HistoryQuery, string, error) {
	q, err := query(r, append([]string{"bank", "location", "kind", "desonerado"}, extra...)...)
	if err != nil {
		return app.HistoryQuery{}, "", err
	}
	if err := required(q, "bank", "location"); err != nil {
		return app.HistoryQuery{}, "", err
	}
	hq := app.HistoryQuery{Bank: q.Get("bank"), State: q.Get("location"), Code: pathParam(r, "code"), Kind: domain.ItemKind(q.Get("kind"))}
	// The use case's checks (app.HistoryQuery.Check), answered as the
	// parameters' 400, with those of the parameters themselves.
	var errs paramErrors
	_, err = hq.Check()
	for _, f := range domain.ErrorFields(err) {
		errs = append(errs, &paramError{Param: strings.TrimPrefix(f.Field, "/"), Message: f.Message})
	}
	if _, ok := q["kind"]; ok && hq.Kind == "" {
		errs = append(errs, &paramError{Param: "kind", Message: "must be composition or resource"}) // given empty
	}
	if d, ok := q["desonerado"]; ok {
		switch d[0] {
		case "true":
			hq.Regime = domain.Desonerado
		case "false":
		default:
			errs = append(errs, &paramError{Param: "desonerado", Message: "must be true or false"})
		}
	}
	if len(errs) > 0 {
		return hq, "", errs
	}
	if len(extra) == 0 {
		return hq, "", nil
	}
	format, err := reportFormat(r, q)
	return hq, format, err
}

// priceHistory handles GET /price_history/{code}.
func (h *handlers) priceHistory(w http.ResponseWriter, r *http.Request) {
	hq, format, err := historyQuery(r, "format")
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	ph, err := h.env.App.PriceHistory(r.Context(), hq)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	regime := "nd"
	if ph.Regime == domain.Desonerado {
		regime = "d"
	}
	if isCSV(format) {
		var buf bytes.Buffer
		if err := reports.PriceHistoryCSV(&buf, ph, csvOptions(format)...); err != nil {
			h.writeError(w, r, err)
			return
		}
		httpapi.WriteExport(w, reports.CSVMediaType, "attachment", historyFilename(ph, "csv"), buf.Bytes())
		return
	}
	d := &historyDoc{ID: ph.Bank + ":" + ph.State + ":" + string(ph.Kind) + ":" + ph.Code + ":" + regime, Bank: ph.Bank,
		Location: ph.State, Code: ph.Code, Kind: string(ph.Kind), Desonerado: ph.Regime == domain.Desonerado,
		Description: ph.Description, Unit: ph.Unit, Points: make([]pricePointDoc, len(ph.Points))}
	for i, p := range ph.Points {
		d.Points[i] = pricePointDoc{Version: p.Month, Region: p.Region, Price: moneyOrNull(p.Price, !p.Priced), Priced: p.Priced}
	}
	h.writeDoc(w, r, http.StatusOK, d)
}

// priceChart handles GET /price_history/{code}/chart.svg.
func (h *handlers) priceChart(w http.ResponseWriter, r *http.Request) {
	hq, _, err := historyQuery(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if _, ok := httpapi.Preferred(r.Header.Values("Accept"), reports.SVGMediaType); !ok {
		h.writeReportError(w, r, domain.Errorf(eNotAcceptable, "the chart is image/svg+xml: Accept must allow it"))
		return
	}
	ph, err := h.env.App.PriceHistory(r.Context(), hq)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := reports.PriceHistorySVG(&buf, ph); err != nil {
		h.writeError(w, r, err)
		return
	}
	httpapi.WriteExport(w, reports.SVGMediaType, "inline", historyFilename(ph, "svg"), buf.Bytes())
}

// historyFilename is "historico-<bank>-<state>-<code>.<ext>", the code
// made safe as reports.Filename makes a budget code.
func historyFilename(ph *domain.PriceHistory, ext string) string {
	name := reports.Filename(&domain.Budget{Code: ph.Bank + "-" + ph.State + "-" + ph.Code, ID: "item"}, "x", ext)
	return "historico-" + strings.TrimSuffix(strings.TrimPrefix(name, "orcamento-"), "-x."+ext) + "." + ext
}
