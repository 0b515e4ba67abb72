package app_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestBudgetARTAndIssueDate: the ART/RRT number and the issue date are
// set on create, changed and cleared by update (a bad date is EINVALID and
// writes nothing), copied by duplicate, carried by the company export and
// import, and a frozen version keeps those it had when frozen: its reports
// (and so its documents) show them after the budget changes.
func TestBudgetARTAndIssueDate(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	in := sampleBudget(false)
	in.ART, in.IssueDate = "  MG20260012345 ", "2026-11-28"
	pb, err := f.svc.CreateBudget(ctx, f.a, in)
	if err != nil {
		t.Fatal(err)
	}
	if pb.ART != "MG20260012345" || pb.IssueDate != "2026-11-28" {
		t.Fatalf("created with %q, %q", pb.ART, pb.IssueDate)
	}

	bad, long := "2026-02-30", strings.Repeat("9", domain.MaxARTLen+1)
	_, err = f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{ART: &long, IssueDate: &bad})
	e, ok := err.(*domain.Error)
	if !ok || e.Code != domain.EINVALID || len(e.Fields) != 2 || e.Fields[0].Field != "/art" || e.Fields[1].Field != "/issue_date" {
		t.Fatalf("a bad update: %v; want EINVALID on /art and /issue_date", err)
	}
	if got, _ := f.svc.Budget(ctx, f.a, pb.ID); got.ART != "MG20260012345" || got.IssueDate != "2026-11-28" {
		t.Errorf("after a refused update: %q, %q; want them unchanged", got.ART, got.IssueDate)
	}

	if _, err := f.svc.DuplicateBudget(ctx, f.a, pb.ID, "ORC-COPIA", ""); err != nil {
		t.Fatal(err)
	}
	exp, err := f.svc.ExportCompany(ctx, f.a)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.svc.FreezeBudget(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	art, date := "MG20260099999", ""
	got, err := f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{ART: &art, IssueDate: &date})
	if err != nil || got.ART != art || got.IssueDate != "" {
		t.Fatalf("update = %+v, %v", got, err)
	}

	exported := 0
	for _, b := range exp.Budgets {
		if b.Code == "ORC-COPIA" && b.ART == "MG20260012345" && b.IssueDate == "2026-11-28" {
			exported++ // the copy, as the export read it
		}
	}
	if exported != 1 {
		t.Errorf("the copy does not have the original's ART and date")
	}

	// The version's report is of the budget as frozen.
	rep, err := f.svc.SyntheticReportStream(app.WithVersion(ctx, v.Number), f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Budget.ART != "MG20260012345" || rep.Budget.IssueDate != "2026-11-28" {
		t.Errorf("version 1's report has %q, %q; want those frozen", rep.Budget.ART, rep.Budget.IssueDate)
	}
	live, err := f.svc.SyntheticReportStream(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if live.Budget.ART != art || live.Budget.IssueDate != "" {
		t.Errorf("the live report has %q, %q", live.Budget.ART, live.Budget.IssueDate)
	}

	// Export to company B: the budgets arrive with their ART and date.
	found := 0
	for _, b := range exp.Budgets {
		if b.ART == "MG20260012345" && b.IssueDate == "2026-11-28" {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("the export has %d budgets with the ART; want 2", found)
	}
	imp, err := f.svc.ImportCompany(ctx, f.b, exp)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range imp.Budgets {
		b, err := f.svc.Budget(ctx, f.b, it.NewID)
		if err != nil {
			t.Fatal(err)
		}
		if b.ART != "MG20260012345" || b.IssueDate != "2026-11-28" {
			t.Errorf("imported %s with %q, %q", b.Code, b.ART, b.IssueDate)
		}
	}
	// A bad date in an export is named by its pointer; nothing is imported.
	exp.Budgets[0].IssueDate = "31/12/2026"
	exp.Budgets[0].Code = "OUTRO"
	_, err = f.svc.ImportCompany(ctx, f.b, exp)
	if e, ok := err.(*domain.Error); !ok || e.Code != domain.EINVALID || !hasField(e, "/budgets/0/issue_date") {
		t.Errorf("importing a bad date: %v; want EINVALID on /budgets/0/issue_date", err)
	}
}

func hasField(e *domain.Error, field string) bool {
	for _, f := range e.Fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// TestDocumentCompany: the documents get the company's name and profile
// (with its logo) in one call; no profile is nil; another company's
// profile is never read.
func TestDocumentCompany(t *testing.T) {
	f := newSampleFixture(t)
	name, prof, err := f.svc.DocumentCompany(ctx, f.a)
	if err != nil || name != "Alfa" || prof != nil {
		t.Fatalf("before a profile: %q, %+v, %v", name, prof, err)
	}
	legal := "Alfa Engenharia Ltda"
	if _, err := f.svc.UpdateCompanyProfile(ctx, f.a, app.ProfilePatch{LegalName: &legal}); err != nil {
		t.Fatal(err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`)
	if _, err := f.svc.PutCompanyLogo(ctx, f.a, svg, domain.LogoSVG); err != nil {
		t.Fatal(err)
	}
	name, prof, err = f.svc.DocumentCompany(ctx, f.a)
	if err != nil || name != "Alfa" || prof == nil || prof.LegalName != legal || string(prof.Logo) != string(svg) || prof.LogoType != domain.LogoSVG {
		t.Errorf("with a profile: %q, %+v, %v", name, prof, err)
	}
	if name, prof, err := f.svc.DocumentCompany(ctx, f.b); err != nil || name != "Beta" || prof != nil {
		t.Errorf("company B: %q, %+v, %v; want its name and no profile", name, prof, err)
	}
}
