package v2

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
	"github.com/shopspring/decimal"
)

// The three reports of a budget (docs/budgets.md) are collections of rows:
// JSON:API types "synthetic-rows", "analytic-rows" and "abc-rows", the id
// of a row being "<budget id>:<node id>" (synthetic and analytic, one row
// per stage and line) or "<budget id>:<position>" (ABC). The report as a
// whole (the budget, its footer, the summaries) is the document's meta.
//
// Each report is also a CSV file (Accept: text/csv, or ?format=csv, which
// wins over Accept), and the ABC curve an SVG chart at …/reports/abc.svg;
// see package reports for their layout. Errors are JSON:API errors
// documents whatever was asked for.

// Paths (below /api/public/v2) whose answer may be in a media type other
// than JSON:API: negotiate leaves their Accept header to the handler.
var (
	csvReportPath = regexp.MustCompile(`(/budgets/[^/]+/(versions/[^/]+/)?(reports/(synthetic|analytic|abc|abc-services)|proposal(/target)?|schedule/table|conformity)|/price_history/[^/]+)$`)
	svgReportPath = regexp.MustCompile(`(/budgets/[^/]+/(reports/(abc|abc-services)|schedule/s-curve)|/budgets/[^/]+/versions/[^/]+/schedule/s-curve|/price_history/[^/]+/chart|/contracts/[^/]+/progress)\.svg$`)
)

// exportAccepted reports whether a request negotiate would refuse (406)
// asks for a report in a media type the handler can answer with.
func exportAccepted(r *http.Request) bool {
	path := httpapi.RoutePath(r)
	switch {
	case svgReportPath.MatchString(path), docReportPath.MatchString(path):
		return true
	case csvReportPath.MatchString(path):
		_, ok := httpapi.Preferred(r.Header.Values("Accept"), csvType)
		return ok
	}
	return false
}

const csvType = "text/csv"

// reportFormat says whether a report is answered as JSON:API ("json"),
// CSV ("csv") or the CSV for a spreadsheet ("csv-excel", see csvOptions):
// ?format= when given (anything else is 400), else the Accept header
// (JSON:API unless text/csv is preferred; 406 when neither is acceptable).
func reportFormat(r *http.Request, q url.Values) (string, error) {
	if f, ok := q["format"]; ok {
		return formatParam(f[0])
	}
	best, ok := httpapi.Preferred(r.Header.Values("Accept"), mediaType, "application/json", csvType)
	if !ok {
		return "", domain.Errorf(eNotAcceptable, "Accept must allow application/vnd.api+json, application/json or text/csv")
	}
	if best == csvType {
		return "csv", nil
	}
	return "json", nil
}

// formatParam checks a ?format= value: json, csv or csv-excel.
func formatParam(f string) (string, error) {
	switch f {
	case "json", "csv", csvExcel:
		return f, nil
	}
	return "", paramErrors{{Param: "format", Message: "must be json (the JSON:API document), csv or csv-excel (the CSV for a spreadsheet)"}}
}

// csvExcel is the format of the CSV made for a spreadsheet.
const csvExcel = "csv-excel"

// isCSV reports whether a format (reportFormat) is a CSV file.
func isCSV(format string) bool { return format == "csv" || format == csvExcel }

// csvOptions are the reports package's options of a CSV format:
// csv-excel writes codes, item numbers and data-bases as text formulas
// (reports.ForSpreadsheet), csv the plain file machines read.
func csvOptions(format string) []reports.CSVOption {
	if format == csvExcel {
		return []reports.CSVOption{reports.ForSpreadsheet}
	}
	return nil
}

// exportName is the file name of an export of budget b's report: with the
// version's number when the path is a frozen version's (reports.VersionFilename).
func exportName(r *http.Request, b *domain.Budget, report, ext string) string {
	n, _ := strconv.Atoi(chi.URLParam(r, "version"))
	return reports.VersionFilename(b, n, report, ext)
}

// formatQuery reads the query of an answer that takes only ?format= (json,
// the default, csv or csv-excel); false when it answered the error.
func (h *handlers) formatQuery(w http.ResponseWriter, r *http.Request) (string, bool) {
	q, err := query(r, "format")
	if err != nil {
		h.writeError(w, r, err)
		return "", false
	}
	format := "json"
	if f, ok := q["format"]; ok {
		if format, err = formatParam(f[0]); err != nil {
			h.writeError(w, r, err)
			return "", false
		}
	}
	return format, true
}

// eNotAcceptable is the code of a 406 a handler decides.
const eNotAcceptable = "not_acceptable"

// writeReportError answers an error of a report request; a 406 decided by
// the handler is written as negotiate writes one.
func (h *handlers) writeReportError(w http.ResponseWriter, r *http.Request, err error) {
	if domain.ErrorCode(err) == eNotAcceptable {
		writeErrors(w, []errorObject{negotiationError(http.StatusNotAcceptable, domain.ErrorMessage(err))})
		return
	}
	h.writeError(w, r, err)
}

// budgetMeta is the budget a report is of, in its meta.
type budgetMeta struct {
	ID          string      `json:"id"`
	Code        string      `json:"code"`
	Description string      `json:"description"`
	Client      string      `json:"client"`
	Location    string      `json:"location"`
	Desonerado  bool        `json:"desonerado"`
	BDI         json.Number `json:"bdi"`
	BDIMode     string      `json:"bdi_mode"`
	Rounding    string      `json:"rounding"`
}

func metaOf(b *domain.Budget) budgetMeta {
	return budgetMeta{ID: b.ID, Code: b.Code, Description: b.Description, Client: b.Client, Location: b.State,
		Desonerado: b.Desonerado, BDI: httpapi.Num(b.BDI), BDIMode: string(b.BDIMode), Rounding: string(b.Rounding)}
}

// summaryDoc is an amount split by category.
type summaryDoc struct {
	Labor     json.Number `json:"labor"`
	Material  json.Number `json:"material"`
	Equipment json.Number `json:"equipment"`
	Services  json.Number `json:"services"`
	Total     json.Number `json:"total"`
}

func summaryOf(s domain.CostSummary) summaryDoc {
	m := httpapi.Money
	return summaryDoc{Labor: m(s.Labor), Material: m(s.Material), Equipment: m(s.Equipment), Services: m(s.Services), Total: m(s.Total())}
}

// footerMeta is the top-level meta of the synthetic and analytic reports.
func footerMeta(b *domain.Budget, t domain.BudgetTotals, rows int) jsonapi.Meta {
	m := jsonapi.Meta{
		"budget":         metaOf(b),
		"rows":           rows,
		"total":          httpapi.Money(t.Total),
		"bdi_value":      httpapi.Money(t.BDIValue),
		"total_with_bdi": httpapi.Money(t.TotalWithBDI),
	}
	if tbl := bdiTableOf(b); tbl != nil {
		m["bdi_table"] = tbl
	}
	return m
}

func selfLink(r *http.Request) *jsonapi.Links {
	return &jsonapi.Links{"self": r.URL.RequestURI()}
}

// syntheticRowDoc is a row of the synthetic report. Fields only a line has
// (bank, base_version, code, unit, quantity, unit prices) are null on a
// stage row, whose totals are the sums of the lines under it.
type syntheticRowDoc struct {
	ID               string       `jsonapi:"primary,synthetic-rows"`
	NodeID           string       `jsonapi:"attr,node_id"`
	Number           string       `jsonapi:"attr,number"`
	Depth            int          `jsonapi:"attr,depth"`
	Kind             string       `jsonapi:"attr,kind"`
	Bank             *string      `jsonapi:"attr,bank"`
	BaseVersion      *string      `jsonapi:"attr,base_version"`
	Code             *string      `jsonapi:"attr,code"`
	Description      string       `jsonapi:"attr,description"`
	Unit             *string      `jsonapi:"attr,unit"`
	Quantity         *json.Number `jsonapi:"attr,quantity"`
	UnitPrice        *json.Number `jsonapi:"attr,unit_price"`
	UnitPriceWithBDI *json.Number `jsonapi:"attr,unit_price_with_bdi"`
	Total            json.Number  `jsonapi:"attr,total"`
	TotalWithBDI     json.Number  `jsonapi:"attr,total_with_bdi"`
	Weight           json.Number  `jsonapi:"attr,weight"`
	Missing          bool         `jsonapi:"attr,missing"`
	// Supply is present (true) on a line priced with the differentiated BDI.
	Supply bool `jsonapi:"attr,supply,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// moneyOrNull is the amount at 2 places, or nil (null) when missing.
func moneyOrNull(d decimal.Decimal, missing bool) *json.Number {
	if missing {
		return nil
	}
	return ptr(httpapi.Money(d))
}

// strOrNil is nil for "" (an own-base line has no edition month).
func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func syntheticRow(budgetID string, row domain.SyntheticRow) *syntheticRowDoc {
	d := &syntheticRowDoc{
		ID: budgetID + ":" + row.NodeID, NodeID: row.NodeID, Number: row.Number, Depth: row.Depth, Kind: string(row.Kind),
		Description: row.Description, Total: httpapi.Money(row.Total), TotalWithBDI: httpapi.Money(row.TotalWithBDI),
		Weight: httpapi.Money(row.Weight), Missing: row.Missing, Supply: row.Supply,
	}
	if row.Kind.IsLine() {
		d.Bank, d.BaseVersion, d.Code, d.Unit = ptr(row.Bank), strOrNil(row.Month), ptr(row.Code), ptr(row.Unit)
		d.Quantity = ptr(httpapi.Num(row.Quantity))
		if !row.Missing {
			d.UnitPrice, d.UnitPriceWithBDI = ptr(httpapi.Money(row.UnitPrice)), ptr(httpapi.Money(row.UnitPriceWithBDI))
		}
	}
	return d
}

// addMissing puts `incomplete` and `missing` into a report's meta when
// something could not be priced (docs/decisions.md, "No silent zero price").
func addMissing(meta jsonapi.Meta, missing []httpapi.MissingLine) {
	if len(missing) > 0 {
		meta["incomplete"] = true
		meta["missing"] = missing
	}
}

// syntheticReport handles GET /budgets/{id}/reports/synthetic.
func (h *handlers) syntheticReport(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "format")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	format, err := reportFormat(r, q)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	rep, err := h.env.App.SyntheticReportStream(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.streamCSV(w, r, exportName(r, rep.Budget, "sintetico", "csv"), func(w io.Writer) error { return reports.SyntheticCSV(w, rep, csvOptions(format)...) })
		return
	}
	h.writeSynthetic(w, r, rep)
}

// writeSynthetic answers the synthetic report's document.
func (h *handlers) writeSynthetic(w http.ResponseWriter, r *http.Request, rep *domain.SyntheticReport) {
	meta := footerMeta(rep.Budget, rep.BudgetTotals, rep.Len())
	addMissing(meta, httpapi.MissingLines(rep.Missing))
	set := fieldsOf(r).of("synthetic-rows")
	h.streamEach(w, r, meta, func(row func(func(*httpapi.JSONWriter)) error) error {
		return rep.Each(func(x *domain.SyntheticRow) error {
			return row(func(j *httpapi.JSONWriter) { writeReportRow(j, rep.Budget.ID, x, nil, nil, set) })
		})
	})
}

// writeCSV answers a CSV export (attachment) of the report rep; 409 when
// a figure of rep is out of bounds (httpapi.FiguresProblem).
func (h *handlers) writeCSV(w http.ResponseWriter, r *http.Request, rep any, name string, render func(*bytes.Buffer) error) {
	if p := httpapi.FiguresProblem(rep); p != "" {
		h.writeError(w, r, domain.Errorf(domain.ECONFLICT, "%s", p))
		return
	}
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		h.writeError(w, r, err)
		return
	}
	httpapi.WriteExport(w, reports.CSVMediaType, "attachment", name, buf.Bytes())
}

// streamCSV answers a CSV export (attachment) of a report, written to the
// answer as render goes (the report's figures checked by the use case).
func (h *handlers) streamCSV(w http.ResponseWriter, r *http.Request, name string, render func(io.Writer) error) {
	httpapi.StartExport(w, reports.CSVMediaType, "attachment", name)
	_ = render(w) // the status is sent: a write error is the client gone
}

// analyticReport handles GET /budgets/{id}/reports/analytic.
func (h *handlers) analyticReport(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "format")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	format, err := reportFormat(r, q)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	rep, err := h.env.App.AnalyticReportStream(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.streamCSV(w, r, exportName(r, rep.Budget, "analitico", "csv"), func(w io.Writer) error { return reports.AnalyticCSV(w, rep, csvOptions(format)...) })
		return
	}
	h.writeAnalytic(w, r, rep)
}

// writeAnalytic answers the analytic report's document.
func (h *handlers) writeAnalytic(w http.ResponseWriter, r *http.Request, rep *domain.AnalyticReport) {
	meta := footerMeta(rep.Budget, rep.BudgetTotals, rep.Len())
	meta["summary"] = summaryOf(rep.Summary)
	addMissing(meta, httpapi.MissingLines(rep.Missing))
	items := &httpapi.ItemTree{Item: analyticItemObject}
	set := fieldsOf(r).of("analytic-rows")
	h.streamEach(w, r, meta, func(row func(func(*httpapi.JSONWriter)) error) error {
		return rep.Each(func(x *domain.AnalyticRow) error {
			return row(func(j *httpapi.JSONWriter) { writeReportRow(j, rep.Budget.ID, &x.SyntheticRow, x, items, set) })
		})
	})
}

// abcLimits reads ?abcLimits=A,B: two percentages with 0 < A < B ≤ 100
// (absent: 50,80). Anything else is 400 naming the parameter.
func abcLimits(q url.Values) (domain.ABCLimits, error) {
	s, ok := q["abcLimits"]
	if !ok {
		return domain.DefaultABCLimits(), nil
	}
	bad := paramErrors{{Param: "abcLimits", Message: "must be two percentages A,B with 0 < A < B ≤ 100, as in abcLimits=50,80"}}
	a, b, found := strings.Cut(s[0], ",")
	if !found {
		return domain.ABCLimits{}, bad
	}
	// Read as every number of a request is (httpapi.ParseNumber): a
	// decimal within the bounds, so that the answer never echoes a longer one.
	da, errA := httpapi.ParseNumber([]byte(strings.TrimSpace(a)), false)
	db, errB := httpapi.ParseNumber([]byte(strings.TrimSpace(b)), false)
	if errA != "" || errB != "" {
		return domain.ABCLimits{}, bad
	}
	l := domain.ABCLimits{A: da, B: db}
	if l.Validate() != nil {
		return domain.ABCLimits{}, bad
	}
	return l, nil
}

// abcReport handles GET /budgets/{id}/reports/abc.
func (h *handlers) abcReport(w http.ResponseWriter, r *http.Request) { h.abcCurve(w, r, false) }

// abcServicesReport handles GET /budgets/{id}/reports/abc-services: the ABC
// curve of the budget's services (its lines, totals with BDI).
func (h *handlers) abcServicesReport(w http.ResponseWriter, r *http.Request) { h.abcCurve(w, r, true) }

// abcOf computes the ABC curve of the resources, or of the services.
func (h *handlers) abcOf(r *http.Request, ctx context.Context, services bool, limits domain.ABCLimits) (*domain.ABCReport, error) {
	if services {
		return h.env.App.ABCServicesReport(ctx, principal(r), chi.URLParam(r, "id"), limits)
	}
	return h.env.App.ABCReport(ctx, principal(r), chi.URLParam(r, "id"), limits)
}

// abcCurve answers an ABC curve as JSON:API or CSV.
func (h *handlers) abcCurve(w http.ResponseWriter, r *http.Request, services bool) {
	q, err := query(r, "format", "abcLimits")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	limits, err := abcLimits(q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	format, err := reportFormat(r, q)
	if err != nil {
		h.writeReportError(w, r, err)
		return
	}
	rep, err := h.abcOf(r, r.Context(), services, limits)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		h.streamCSV(w, r, exportName(r, rep.Budget, reports.ABCFileStem(rep), "csv"), func(w io.Writer) error { return reports.ABCCSV(w, rep, csvOptions(format)...) })
		return
	}
	h.writeABC(w, r, rep)
}

// writeABC answers the ABC curve's document.
func (h *handlers) writeABC(w http.ResponseWriter, r *http.Request, rep *domain.ABCReport) {
	classes := map[string]map[string]any{}
	for _, c := range rep.Classes() {
		classes[string(c.Class)] = map[string]any{"count": c.Count, "total": httpapi.Money(c.Total), "percent": httpapi.Money(c.Percent)}
	}
	meta := jsonapi.Meta{
		"budget":  metaOf(rep.Budget),
		"rows":    len(rep.Rows),
		"limits":  map[string]json.Number{"a": httpapi.Num(rep.Limits.A), "b": httpapi.Num(rep.Limits.B)},
		"total":   httpapi.Money(rep.Total),
		"summary": summaryOf(rep.Summary),
		"classes": classes,
	}
	addMissing(meta, httpapi.MissingRows(rep.Missing))
	if rep.Services() {
		// The services' curve: every row is a service, so no summary by
		// category; ranked says what is ranked.
		delete(meta, "summary")
		meta["ranked"] = string(rep.Ranked)
		set := fieldsOf(r).of("abc-service-rows")
		h.streamRows(w, r, meta, len(rep.Rows), func(j *httpapi.JSONWriter, i int) {
			writeABCRow(j, rep.Budget.ID, &rep.Rows[i], set, true)
		})
		return
	}
	set := fieldsOf(r).of("abc-rows")
	h.streamRows(w, r, meta, len(rep.Rows), func(j *httpapi.JSONWriter, i int) {
		writeABCRow(j, rep.Budget.ID, &rep.Rows[i], set, false)
	})
}

// abcChart handles GET /budgets/{id}/reports/abc.svg: the ABC curve as a
// Pareto chart (image/svg+xml, inline). Accept must allow image/svg+xml
// (406 otherwise).
func (h *handlers) abcChart(w http.ResponseWriter, r *http.Request) { h.abcSVG(w, r, false) }

// abcServicesChart handles GET /budgets/{id}/reports/abc-services.svg: the
// ABC curve of the services as abcChart draws the resources'.
func (h *handlers) abcServicesChart(w http.ResponseWriter, r *http.Request) { h.abcSVG(w, r, true) }

// abcSVG answers an ABC curve as a Pareto chart.
func (h *handlers) abcSVG(w http.ResponseWriter, r *http.Request, services bool) {
	q, err := query(r, "abcLimits")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	limits, err := abcLimits(q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if _, ok := httpapi.Preferred(r.Header.Values("Accept"), reports.SVGMediaType); !ok {
		h.writeReportError(w, r, domain.Errorf(eNotAcceptable, "the chart is image/svg+xml: Accept must allow it"))
		return
	}
	rep, err := h.abcOf(r, r.Context(), services, limits)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := reports.ABCSVG(&buf, rep); err != nil {
		h.writeError(w, r, err)
		return
	}
	httpapi.WriteExport(w, reports.SVGMediaType, "inline", reports.Filename(rep.Budget, reports.ABCFileStem(rep), "svg"), buf.Bytes())
}
