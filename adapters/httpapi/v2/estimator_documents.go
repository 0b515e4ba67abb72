package v2

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// The client documents of the synthetic, analytic and ABC reports
// (docs/budgets.md, "Spreadsheet and PDF"):
//
//	GET /budgets/{id}/reports/{synthetic,analytic,abc,abc-services}.xlsx and .pdf
//	GET /budgets/{id}/versions/{version}/reports/{synthetic,analytic,abc,abc-services}.xlsx and .pdf
//
// (a version's document carries its number and hash; abc and abc-services
// take abcLimits).

// docReportPath are the paths whose answer is a spreadsheet or a PDF.
var docReportPath = regexp.MustCompile(`(/budgets/[^/]+/(versions/[^/]+/)?(reports/(synthetic|analytic|abc|abc-services)|schedule/table)|/budgets/[^/]+/conformity|/contracts/[^/]+/(measurements/[^/]+/boletim|statement|readjustment))\.(xlsx|pdf)$`)

// docFunc computes a report for a document (its figures checked by the
// use case): what renders it to a writer, and the file's name.
type docFunc func(h *handlers, r *http.Request, ctx context.Context, kind string, doc reports.Document) (func(io.Writer) error, string, error)

// docReport makes the docFunc of a report: get computes it streamed (its
// rows handed out by its Each as it walks the budget again, never all
// held) and names its budget; xlsx and pdf render it.
func docReport[R any](name string, get func(h *handlers, r *http.Request, ctx context.Context) (R, *domain.Budget, error),
	xlsx, pdf func(io.Writer, R, reports.Document) error) docFunc {
	return func(h *handlers, r *http.Request, ctx context.Context, kind string, doc reports.Document) (func(io.Writer) error, string, error) {
		rep, b, err := get(h, r, ctx)
		if err != nil {
			return nil, "", err
		}
		render := xlsx
		if kind == "pdf" {
			render = pdf
		}
		return func(w io.Writer) error { return render(w, rep, doc) }, exportName(r, b, name, kind), nil
	}
}

// documentReports are the reports served as documents.
var documentReports = map[string]docFunc{
	"synthetic": docReport("sintetico", func(h *handlers, r *http.Request, ctx context.Context) (*domain.SyntheticReport, *domain.Budget, error) {
		rep, err := h.env.App.SyntheticReportStream(ctx, principal(r), chi.URLParam(r, "id"))
		return rep, budgetOf(rep, func() *domain.Budget { return rep.Budget }), err
	}, reports.SyntheticXLSX, reports.SyntheticPDF),
	"analytic": docReport("analitico", func(h *handlers, r *http.Request, ctx context.Context) (*domain.AnalyticReport, *domain.Budget, error) {
		rep, err := h.env.App.AnalyticReportStream(ctx, principal(r), chi.URLParam(r, "id"))
		return rep, budgetOf(rep, func() *domain.Budget { return rep.Budget }), err
	}, reports.AnalyticXLSX, reports.AnalyticPDF),
	"abc": docReport("curva-abc", func(h *handlers, r *http.Request, ctx context.Context) (*domain.ABCReport, *domain.Budget, error) {
		limits, err := abcLimits(r.URL.Query())
		if err != nil {
			return nil, nil, err
		}
		rep, err := h.env.App.ABCReport(ctx, principal(r), chi.URLParam(r, "id"), limits)
		return rep, budgetOf(rep, func() *domain.Budget { return rep.Budget }), err
	}, reports.ABCXLSX, reports.ABCPDF),
	"abc-services": docReport("curva-abc-servicos", func(h *handlers, r *http.Request, ctx context.Context) (*domain.ABCReport, *domain.Budget, error) {
		limits, err := abcLimits(r.URL.Query())
		if err != nil {
			return nil, nil, err
		}
		rep, err := h.abcOf(r, ctx, true, limits)
		return rep, budgetOf(rep, func() *domain.Budget { return rep.Budget }), err
	}, reports.ABCXLSX, reports.ABCPDF),
	"schedule": docReport("cronograma", func(h *handlers, r *http.Request, ctx context.Context) (*domain.ScheduleTable, *domain.Budget, error) {
		t, err := h.env.App.ScheduleTable(ctx, principal(r), chi.URLParam(r, "id"))
		return t, budgetOf(t, func() *domain.Budget { return t.Budget }), err
	}, reports.ScheduleXLSX, reports.SchedulePDF),
}

// budgetOf is a report's budget, nil when there is no report.
func budgetOf[R any](rep *R, b func() *domain.Budget) *domain.Budget {
	if rep == nil {
		return nil
	}
	return b()
}

// reportDocument serves a report (synthetic, analytic or abc) as XLSX or
// PDF, of the budget or of one of its versions.
func (h *handlers) reportDocument(report, kind string, version bool) http.HandlerFunc {
	compute := documentReports[report]
	return func(w http.ResponseWriter, r *http.Request) {
		params := []string{}
		if report == "abc" || report == "abc-services" {
			params = append(params, "abcLimits")
		}
		media, ok := h.documentMedia(w, r, kind, params...)
		if !ok {
			return
		}
		ctx, p, id := r.Context(), principal(r), chi.URLParam(r, "id")
		var doc reports.Document
		if version {
			n, err := versionNumber(r, "version")
			if err != nil {
				h.writeError(w, r, err)
				return
			}
			if doc.Version, err = h.env.App.BudgetVersion(ctx, p, id, n); err != nil {
				h.writeError(w, r, err)
				return
			}
			ctx = app.WithVersion(ctx, n)
		}
		h.renderDocument(w, r, ctx, media, doc, func(doc reports.Document) (func(io.Writer) error, string, error) {
			return compute(h, r, ctx, kind, doc)
		})
	}
}

// documentMedia checks a document request: its query (the parameters
// given), and an Accept that allows the document's media type (kind xlsx
// or pdf; 406 otherwise). It returns the media type; false when it
// answered the error.
func (h *handlers) documentMedia(w http.ResponseWriter, r *http.Request, kind string, params ...string) (string, bool) {
	if _, err := query(r, params...); err != nil {
		h.writeError(w, r, err)
		return "", false
	}
	media := reports.XLSXMediaType
	if kind == "pdf" {
		media = reports.PDFMediaType
	}
	if _, ok := httpapi.Preferred(r.Header.Values("Accept"), media); !ok {
		h.writeReportError(w, r, domain.Errorf(eNotAcceptable, "the document is %s: Accept must allow it", media))
		return "", false
	}
	return media, true
}

// renderDocument writes a client document (XLSX or PDF, media): the
// company's name and profile are added to doc, the document waits for an
// export slot (503 when none frees), compute gives what renders it and its
// file name, and it goes to the answer as it is written.
func (h *handlers) renderDocument(w http.ResponseWriter, r *http.Request, ctx context.Context, media string, doc reports.Document,
	compute func(reports.Document) (func(io.Writer) error, string, error)) {
	var err error
	// The company's name and profile (the header, the signature block):
	// the profile as it is now, also on a version's document.
	if doc.Company, doc.Profile, err = h.env.App.DocumentCompany(ctx, principal(r)); err != nil {
		h.writeError(w, r, err)
		return
	}
	// A document is a heavy export: it waits for a slot (Env.Exports),
	// else 503.
	release, ok := h.env.Exports.Acquire(ctx)
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(httpapi.ExportRetryAfter))
		h.writeError(w, r, domain.Errorf(domain.EUNAVAILABLE, "the server is writing as many documents as it can at once: try again in a few seconds"))
		return
	}
	defer release()
	render, name, err := compute(doc)
	if err != nil {
		h.documentFailed(w, r, err, false)
		return
	}
	// The document goes to the answer as it is written: its headers with
	// its first byte. A failure before that is answered as an error;
	// after it, the answer is cut short (the client sees a broken
	// transfer, not a truncated document taken as whole).
	out := &documentWriter{w: w, media: media, name: name}
	if err := render(out); err != nil {
		h.documentFailed(w, r, err, out.started)
	}
}

// documentFailed answers a document whose computation failed: with the
// error while nothing is sent; by cutting the answer short once it has
// begun; not at all when the client has gone away (logged as 499).
func (h *handlers) documentFailed(w http.ResponseWriter, r *http.Request, err error, started bool) {
	switch {
	case r.Context().Err() != nil:
		h.env.LogStatus(r, statusClientGone, err)
	case !started:
		h.writeError(w, r, err)
	default:
		h.env.LogStatus(r, http.StatusInternalServerError, err)
		panic(http.ErrAbortHandler)
	}
}

// statusClientGone is the status logged for a request whose client went
// away before its answer was written (nginx's "client closed request").
const statusClientGone = 499

// documentWriter writes a document to the answer: the headers (its media
// type, and as an attachment its file name) go with the first byte.
type documentWriter struct {
	w           http.ResponseWriter
	media, name string
	started     bool
}

func (d *documentWriter) Write(p []byte) (int, error) {
	if !d.started {
		d.started = true
		httpapi.StartExport(d.w, d.media, "attachment", d.name)
	}
	return d.w.Write(p)
}
