package v2

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/adapters/sheetimport"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// A budget from a tender's spreadsheet (docs/budgets.md):
//
//	POST /budgets/import?code=…&description=…&location=MG&bank=SINAPI&version=08/2026[&bdi=25][&desonerado=true][&unmatched=own][&dry_run=true]
//	POST /budgets/import?…&bank=SINAPI&version=08/2026&editions=SICRO3:01/2024[,BANK:MM/YYYY…]   more editions
//
// with the sheet as the body (text/csv, or the XLSX media type), capped as
// every body. 201 with the budget, meta.unmatched listing the lines
// imported as own priced lines; with dry_run, 200 with the report of how
// each line was matched, nothing written. Every row that cannot be read
// or matched (or, with unmatched=own, imported) is a 422 error naming it
// (source.pointer "/rows/<n>").

// isSheetUpload reports whether a request uploads a sheet to import.
func isSheetUpload(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return r.Method == http.MethodPost && strings.HasSuffix(httpapi.RoutePath(r), "/budgets/import") &&
		(mt == "text/csv" || mt == reports.XLSXMediaType)
}

// sheetParams are the import's query parameters.
var sheetParams = []string{"code", "description", "client", "location", "bank", "version", "editions", "bdi", "desonerado", "unmatched", "dry_run"}

// importBudgetSheet handles POST /budgets/import.
func (h *handlers) importBudgetSheet(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, sheetParams...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if !isSheetUpload(r) {
		h.writeError(w, r, domain.Errorf(httpapi.EUNSUPPORTED, "the sheet must be sent as text/csv or %s", reports.XLSXMediaType))
		return
	}
	in := app.SheetImport{Unmatched: q.Get("unmatched"), Budget: app.BudgetInput{Code: q.Get("code"), Description: q.Get("description"), Client: q.Get("client"),
		State: q.Get("location")}}
	var bad paramErrors
	required := []string{"code", "description", "location", "bank", "version"}
	in.Budget.Banks = []app.BankInput{{Name: q.Get("bank"), State: q.Get("location"), Month: q.Get("version")}}
	if eds := q.Get("editions"); eds != "" {
		// More editions, of other banks: BANK:MM/YYYY,BANK:MM/YYYY (the
		// sheet's bank column chooses each line's).
		for _, e := range strings.Split(eds, ",") {
			bank, month, ok := strings.Cut(strings.TrimSpace(e), ":")
			if !ok || strings.TrimSpace(bank) == "" || strings.TrimSpace(month) == "" {
				bad = append(bad, &paramError{Param: "editions", Message: fmt.Sprintf("%q is not BANK:MM/YYYY", e)})
				continue
			}
			in.Budget.Banks = append(in.Budget.Banks, app.BankInput{Name: bank, State: q.Get("location"), Month: month})
		}
	}
	for _, name := range required {
		if strings.TrimSpace(q.Get(name)) == "" {
			bad = append(bad, &paramError{Param: name, Message: "is required"})
		}
	}
	if s := q.Get("bdi"); s != "" {
		d, problem := httpapi.ParseNumber([]byte(s), false)
		if problem != "" {
			bad = append(bad, &paramError{Param: "bdi", Message: "must be a percent: " + problem})
		}
		in.Budget.BDI = d
	}
	for name, target := range map[string]*bool{"desonerado": &in.Budget.Desonerado, "dry_run": &in.DryRun} {
		if s := q.Get(name); s != "" {
			v, err := strconv.ParseBool(s)
			if err != nil {
				bad = append(bad, &paramError{Param: name, Message: "must be true or false"})
			}
			*target = v
		}
	}
	if !app.ValidUnmatched(q.Get("unmatched")) {
		bad = append(bad, &paramError{Param: "unmatched", Message: "must be " + app.UnmatchedRefuse + " or " + app.UnmatchedOwn})
	}
	if len(bad) > 0 {
		h.writeError(w, r, bad)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	sheet, err := sheetimport.Read(r.Context(), "sheet", bytes.NewReader(body), int64(len(body)), sheetimport.DefaultLimits)
	if err != nil {
		h.writeError(w, r, domain.Errorf(domain.EINVALID, "the sheet cannot be read: %v", err))
		return
	}
	for _, st := range sheet.Stages {
		in.Stages = append(in.Stages, app.SheetStage{Row: st.Row, Number: st.Number, Parent: st.Parent, Description: st.Description})
	}
	for _, l := range sheet.Lines {
		in.Lines = append(in.Lines, app.SheetLine{Row: l.Row, Number: l.Number, Stage: l.Stage, Bank: l.Bank, Code: l.Code,
			Description: l.Description, Unit: l.Unit, Quantity: l.Quantity, UnitPrice: l.UnitPrice, HasPrice: l.HasPrice})
	}
	in.PriceWithBDI = sheet.PriceWithBDI
	// The rows that cannot be read and those that cannot be matched, at once.
	var v domain.Validation
	for _, e := range sheet.Errors {
		v.Add("/rows/"+strconv.Itoa(e.Row), "%s", e.Error())
	}
	if v.Len() > 0 {
		in.DryRun = true // the lines read are only matched, to name every row at once
	}
	matches, pb, err := h.env.App.ImportBudgetSheet(r.Context(), principal(r), in)
	if err != nil && domain.ErrorCode(err) != domain.EINVALID {
		h.writeError(w, r, err)
		return
	}
	_ = v.Merge("", err)
	if err := v.Err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	if pb != nil {
		unmatched := []map[string]any{}
		for _, m := range matches {
			if m.Unmatched {
				unmatched = append(unmatched, matchRow(m))
			}
		}
		w.Header().Set("Location", created(r, pb.ID))
		h.writeDocWith(w, r, http.StatusCreated, h.budgetDoc(pb, true), nil, &jsonapi.Meta{"unmatched": unmatched})
		return
	}
	rows := make([]map[string]any, len(matches))
	for i, m := range matches {
		rows[i] = matchRow(m)
	}
	skipped := sheet.Skipped
	if skipped == nil {
		skipped = []int{}
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: &jsonapi.Node{Type: "budget-imports", ID: "dry-run", Attributes: map[string]any{
		"header_row": sheet.HeaderRow, "stages": len(sheet.Stages), "lines": rows, "skipped_rows": skipped,
	}}})
}

// matchRow is a sheet line's match as the answer gives it; an unmatched
// line imported as an own priced line carries unmatched and its reason.
func matchRow(m app.SheetMatch) map[string]any {
	row := map[string]any{"row": m.Row, "number": m.Number, "kind": string(m.Kind), "bank": m.Bank, "code": m.Code, "edition": m.Edition}
	if m.Unmatched {
		row["unmatched"], row["reason"] = true, m.Reason
	}
	return row
}
