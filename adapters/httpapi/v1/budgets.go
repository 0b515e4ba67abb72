package v1

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/shopspring/decimal"
)

// Budgets in v1 (real v1 paths): the list, the detail (budgetdetail.go),
// and the synthetic and analytic reports. As the origin system's v1 does for budgets, every amount,
// percentage and quantity under /bud is a decimal string: money with two
// places ("22072.37"), quantities and coefficients with every digit kept
// ("120.5"). Budgets are written through v2 (v1 has no authoring).
//
// The reports are JSON arrays of rows, one per stage and line in tree
// order, and a last row of kind "total", the footer: total_price is the
// total without BDI and total_price_plus_bdi the total with BDI (their
// difference is the BDI value). Both reports are also CSV files
// (?format=csv, or Accept: text/csv); v1 never answers 406.

// budgetRecord is a budget in the v1 list.
type budgetRecord struct {
	ID           string              `json:"id"`
	CompanyID    string              `json:"company_id"`
	UserID       string              `json:"user_id"`
	DepartmentID string              `json:"department_id"`
	Code         string              `json:"code"`
	Description  string              `json:"description"`
	Client       string              `json:"client"`
	State        string              `json:"state"`
	Tags         []string            `json:"tags,omitempty"`
	Desonerado   bool                `json:"desonerado"`
	BDI          string              `json:"bdi"`
	BDIMode      string              `json:"bdi_mode"`
	Rounding     string              `json:"rounding"`
	Banks        map[string]bankBody `json:"banks"`
	Lines        int                 `json:"lines"`
	Total        string              `json:"total"`
	BDIValue     string              `json:"bdi_value"`
	TotalWithBDI string              `json:"total_with_bdi"`
	CreatedAt    string              `json:"created_at"`
	UpdatedAt    string              `json:"updated_at"`
	// Incomplete and Missing appear only when some line has no price: the
	// totals then leave it out.
	Incomplete bool                  `json:"incomplete,omitempty"`
	Missing    []httpapi.MissingLine `json:"missing,omitempty"`
}

// budgetList is the body of the budget list (real v1): the records under
// `budgets` instead of `records`.
type budgetList struct {
	Budgets     []budgetRecord `json:"budgets"`
	Total       int            `json:"total"`
	CurrentPage int            `json:"current_page"`
	PerPage     int            `json:"per_page"`
}

// money writes an amount as a decimal string with two places.
func money(d decimal.Decimal) string {
	var buf [24]byte
	return string(domain.AppendFixed2(buf[:0], d, '.'))
}

// price writes a unit price as a decimal string with at least two places
// (an own SICRO-model composition may carry four).
func price(d decimal.Decimal) *string {
	s := httpapi.Num(d).String()
	if d.Exponent() > -2 {
		s = d.StringFixed(2)
	}
	return &s
}

// exact writes a quantity or coefficient with every digit, up to 10 places
// as every number of an answer (httpapi.Num).
func exact(d decimal.Decimal) *string { s := httpapi.Num(d).String(); return &s }

func (h *handler) budgetRecord(pb *domain.PricedBudget) budgetRecord {
	b := pb.Budget
	rec := budgetRecord{
		ID: b.ID, CompanyID: b.CompanyID, UserID: b.UserID, DepartmentID: b.DepartmentID,
		Code: b.Code, Description: b.Description, Client: b.Client, State: b.State, Tags: b.Tags, Desonerado: b.Desonerado,
		BDI: b.BDI.String(), BDIMode: string(b.BDIMode), Rounding: string(b.Rounding),
		Banks: make(map[string]bankBody, len(b.Banks)), Lines: b.Lines(),
		Total: money(pb.Totals.Total), BDIValue: money(pb.Totals.BDIValue), TotalWithBDI: money(pb.Totals.TotalWithBDI),
		CreatedAt: h.env.FormatTime(b.CreatedAt), UpdatedAt: h.env.FormatTime(b.UpdatedAt),
		Incomplete: pb.Incomplete(), Missing: httpapi.MissingLines(pb.Missing),
	}
	for _, ref := range b.Banks {
		rec.Banks[ref.Name] = bankBody{Data: ref.Month, Estado: ref.State, Regiao: ref.Region, Relatorio: ref.Report}
	}
	return rec
}

// listBudgets handles GET /bud/budgets/list?page=&per_page=&search=&order_name=&order_type=.
// search matches code, description or client (contains, ignoring case and
// accents); order_name is one of code, description, client, state,
// created_at, updated_at, and order_type asc (default) or desc.
func (h *handler) listBudgets(w http.ResponseWriter, r *http.Request) {
	pg, err := parsePagination(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	q := pg.query(r, true)
	qs := r.URL.Query()
	desc := false
	switch strings.ToLower(strings.TrimSpace(qs.Get("order_type"))) {
	case "", "asc":
	case "desc":
		desc = true
	default:
		e := domain.Errorf(domain.EBADREQUEST, "order_type must be asc or desc")
		e.Fields = []domain.FieldError{{Field: "/order_type", Message: "must be asc or desc"}}
		h.fail(w, r, e)
		return
	}
	if name := strings.TrimSpace(qs.Get("order_name")); name != "" {
		q.Sort = []app.SortKey{{Field: name, Desc: desc}}
	}
	q.Zone = h.env.Location
	list, total, err := h.env.App.Budgets(r.Context(), principal(r), q)
	if err != nil {
		h.failAs(w, r, err, renamed(map[string]string{"sort": "order_name", "filter[search]": "search"}))
		return
	}
	if p := httpapi.FiguresProblem(list); p != "" {
		h.fail(w, r, domain.Errorf(domain.ECONFLICT, "%s", p))
		return
	}
	out := budgetList{Budgets: make([]budgetRecord, 0, len(list)), Total: total, CurrentPage: pg.page, PerPage: pg.perPage}
	for _, pb := range list {
		out.Budgets = append(out.Budgets, h.budgetRecord(pb))
	}
	h.write(w, http.StatusOK, out)
}

// reportRow is a row of the v1 synthetic report. Fields a stage has not
// (base, base_version, code, unity, qty, price, price_plus_bdi) are null on
// stage rows and on the footer; base_version is null for the own base
// (MYBASE). weight is the row's share of the total without BDI, in percent.
type reportRow struct {
	Itemization       *string `json:"itemization"`
	Kind              string  `json:"kind"`
	Base              *string `json:"base"`
	BaseVersion       *string `json:"base_version"`
	Code              *string `json:"code"`
	Descr             string  `json:"descr"`
	Unity             *string `json:"unity"`
	Qty               *string `json:"qty"`
	Price             *string `json:"price"`
	PricePlusBDI      *string `json:"price_plus_bdi"`
	TotalPrice        string  `json:"total_price"`
	TotalPricePlusBDI string  `json:"total_price_plus_bdi"`
	Weight            string  `json:"weight"`
	// On the footer only, when some line has no price (its price and
	// price_plus_bdi are null): the totals are incomplete and missing says
	// what and why.
	Incomplete bool                  `json:"incomplete,omitempty"`
	Missing    []httpapi.MissingLine `json:"missing,omitempty"`
}

func str(s string) *string { return &s }

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func syntheticRow(row domain.SyntheticRow) reportRow {
	out := reportRow{
		Itemization: str(row.Number), Kind: string(row.Kind), Descr: row.Description,
		TotalPrice: money(row.Total), TotalPricePlusBDI: money(row.TotalWithBDI), Weight: money(row.Weight),
	}
	if row.Kind.IsLine() {
		out.Base, out.BaseVersion, out.Code, out.Unity = str(row.Bank), optStr(row.Month), str(row.Code), str(row.Unit)
		out.Qty = exact(row.Quantity)
		if !row.Missing {
			out.Price, out.PricePlusBDI = price(row.UnitPrice), price(row.UnitPriceWithBDI)
		}
	}
	return out
}

// incompleteFooter flags a footer row when something has no price.
func incompleteFooter(row reportRow, missing []domain.BudgetMissing) reportRow {
	row.Incomplete, row.Missing = len(missing) > 0, httpapi.MissingLines(missing)
	return row
}

// footerRow is the last row of a report: the budget's totals.
func footerRow(t domain.BudgetTotals) reportRow {
	w := decimal.Zero
	if t.Total.IsPositive() {
		w = decimal.NewFromInt(100)
	}
	return reportRow{Kind: "total", Descr: "Total", TotalPrice: money(t.Total), TotalPricePlusBDI: money(t.TotalWithBDI), Weight: money(w)}
}

// wantsCSV reads ?format= (csv, csv-excel or json; anything else is 400)
// and, without it, Accept: CSV when text/csv is preferred to JSON. For
// csv-excel it returns the option of the spreadsheet variant
// (reports.ForSpreadsheet: codes and item numbers kept as text).
func wantsCSV(r *http.Request) (bool, []reports.CSVOption, error) {
	if f, ok := r.URL.Query()["format"]; ok {
		switch f[0] {
		case "csv":
			return true, nil, nil
		case "csv-excel":
			return true, []reports.CSVOption{reports.ForSpreadsheet}, nil
		case "json":
			return false, nil, nil
		}
		e := domain.Errorf(domain.EBADREQUEST, "format must be json, csv or csv-excel")
		e.Fields = []domain.FieldError{{Field: "/format", Message: "must be json, csv or csv-excel"}}
		return false, nil, e
	}
	best, ok := httpapi.Preferred(r.Header.Values("Accept"), mediaType, "text/csv")
	return ok && best == "text/csv", nil, nil
}

func (h *handler) streamCSV(w http.ResponseWriter, name string, render func(io.Writer) error) {
	httpapi.StartExport(w, reports.CSVMediaType, "attachment", name)
	_ = render(w) // the status is sent: a write error is the client gone
}

// syntheticReport handles GET /bud/budgets/{id}/synthetic.
func (h *handler) syntheticReport(w http.ResponseWriter, r *http.Request) {
	answerReport(h, w, r, h.env.App.SyntheticReportStream, reports.SyntheticCSV, writeSynthetic,
		func(rep *domain.SyntheticReport) string { return reports.Filename(rep.Budget, "sintetico", "csv") })
}

// answerReport answers a report of the budget in the path, computed by get
// to be written as it goes: as CSV when Accept prefers it (wantsCSV), in
// the file file names, else as JSON by writeJSON.
func answerReport[R any](h *handler, w http.ResponseWriter, r *http.Request,
	get func(context.Context, domain.Principal, string) (R, error),
	writeCSV func(io.Writer, R, ...reports.CSVOption) error, writeJSON func(http.ResponseWriter, R), file func(R) string) {
	csv, opts, err := wantsCSV(r)
	var rep R
	if err == nil {
		rep, err = get(r.Context(), principal(r), chi.URLParam(r, "id"))
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if csv {
		h.streamCSV(w, file(rep), func(w io.Writer) error { return writeCSV(w, rep, opts...) })
		return
	}
	writeJSON(w, rep)
}

// writeSynthetic answers the synthetic report, written as it goes: its
// rows, then the footer.
func writeSynthetic(w http.ResponseWriter, rep *domain.SyntheticReport) {
	httpapi.StreamJSON(w, mediaType, func(j *httpapi.JSONWriter) {
		j.Raw("[")
		_ = rep.Each(func(row *domain.SyntheticRow) error { // streamed (domain.SyntheticStream)
			if j.Err() != nil {
				return j.Err() // the client went away
			}
			writeRowFields(j, syntheticRow(*row))
			j.Raw("},")
			return nil
		})
		writeRowFields(j, incompleteFooter(footerRow(rep.BudgetTotals), rep.Missing))
		j.Raw("}]")
	})
}

// writeRowFields writes a reportRow as encoding/json does, without its
// closing brace.
func writeRowFields(j *httpapi.JSONWriter, r reportRow) {
	j.Raw(`{"itemization":`)
	j.StringOrNull(r.Itemization)
	j.Raw(`,"kind":`)
	j.String(r.Kind)
	j.Raw(`,"base":`)
	j.StringOrNull(r.Base)
	j.Raw(`,"base_version":`)
	j.StringOrNull(r.BaseVersion)
	j.Raw(`,"code":`)
	j.StringOrNull(r.Code)
	j.Raw(`,"descr":`)
	j.String(r.Descr)
	j.Raw(`,"unity":`)
	j.StringOrNull(r.Unity)
	j.Raw(`,"qty":`)
	j.StringOrNull(r.Qty)
	j.Raw(`,"price":`)
	j.StringOrNull(r.Price)
	j.Raw(`,"price_plus_bdi":`)
	j.StringOrNull(r.PricePlusBDI)
	j.Raw(`,"total_price":`)
	j.String(r.TotalPrice)
	j.Raw(`,"total_price_plus_bdi":`)
	j.String(r.TotalPricePlusBDI)
	j.Raw(`,"weight":`)
	j.String(r.Weight)
	if r.Incomplete {
		j.Raw(`,"incomplete":true`)
	}
	if len(r.Missing) > 0 {
		j.Raw(`,"missing":`)
		j.Value(r.Missing)
	}
}

// The analytic report's rows are its synthetic rows (reportRow), each
// followed by items (the items of a composition line, empty for stages and
// resources), unit_summary (one unit of a line by category; null for
// stages and the footer) and summary (on the footer only, the whole
// budget's direct cost by category, from its resources, without BDI; null
// elsewhere). An item of a composition is per unit of the composition:
// kind, base, base_version, code, descr, unity, type (the resource type as
// text, as v1 composition items write it; null for a composition),
// coefficient, price and total_price (the partial cost; both null when
// missing), missing, and items, the items of a composition item opened in
// turn (an own composition always, a bank one where its published
// structure was imported).

// analyticReport handles GET /bud/budgets/{id}/analytical_with_unit_price.
func (h *handler) analyticReport(w http.ResponseWriter, r *http.Request) {
	answerReport(h, w, r, h.env.App.AnalyticReportStream, reports.AnalyticCSV, writeAnalytic,
		func(rep *domain.AnalyticReport) string { return reports.Filename(rep.Budget, "analitico", "csv") })
}

// writeAnalytic answers the analytic report, written as it goes.
func writeAnalytic(w http.ResponseWriter, rep *domain.AnalyticReport) {
	items := httpapi.ItemTree{Item: analyticItemObject}
	httpapi.StreamJSON(w, mediaType, func(j *httpapi.JSONWriter) {
		j.Raw("[")
		_ = rep.Each(func(row *domain.AnalyticRow) error { // streamed (domain.AnalyticStream)
			if j.Err() != nil {
				return j.Err() // the client went away
			}
			writeRowFields(j, syntheticRow(row.SyntheticRow))
			j.Raw(`,"items":`)
			items.Write(j, row.Items)
			j.Raw(`,"unit_summary":`)
			if row.Kind.IsLine() {
				writeSummary(j, row.UnitSummary)
			} else {
				j.Null()
			}
			j.Raw(`,"summary":null},`)
			return nil
		})
		writeRowFields(j, incompleteFooter(footerRow(rep.BudgetTotals), rep.Missing))
		j.Raw(`,"items":[],"unit_summary":null,"summary":`)
		writeSummary(j, rep.Summary)
		j.Raw("}]")
	})
}

// writeSummary writes summaryOf(s).
func writeSummary(j *httpapi.JSONWriter, s domain.CostSummary) {
	httpapi.WriteSummary(j, s, func(j *httpapi.JSONWriter, d decimal.Decimal) { j.String(money(d)) })
}

// analyticItemObject is an item of a composition line as the analytic report
// shows it, but its items (httpapi.ItemTree): figures as strings, prices
// null for an item without one.
var analyticItemObject = httpapi.NewObject(
	httpapi.ItemKind,
	httpapi.Str("base", func(it *domain.AnalyticItem) string { return it.Bank }),
	httpapi.ItemBaseVersion, httpapi.ItemCode,
	httpapi.Str("descr", func(it *domain.AnalyticItem) string { return it.Description }),
	httpapi.Str("unity", func(it *domain.AnalyticItem) string { return it.Unit }),
	httpapi.Field("type", func(e *httpapi.Encoder, it *domain.AnalyticItem) {
		nullUnless(e, it.Kind == domain.KindResource, strconv.Itoa(it.ResourceType))
	}),
	httpapi.Str("coefficient", func(it *domain.AnalyticItem) string { return it.Coefficient.String() }),
	httpapi.Field("price", func(e *httpapi.Encoder, it *domain.AnalyticItem) { nullUnless(e, !it.Missing, *price(it.UnitPrice)) }),
	httpapi.Field("total_price", func(e *httpapi.Encoder, it *domain.AnalyticItem) { nullUnless(e, !it.Missing, money(it.Partial)) }),
	httpapi.ItemMissing,
)

// nullUnless appends s when ok, else null.
func nullUnless(e *httpapi.Encoder, ok bool, s string) {
	if !ok {
		e.Null()
		return
	}
	e.String(s)
}
