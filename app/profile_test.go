package app_test

import (
	"encoding/json"
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

// TestProfileTravelsWithExport: the export carries the profile and its
// logo (both format versions); an import gives them to a company that has
// no profile and leaves an existing one as it is; a bad profile in an
// export is named by its pointer and nothing is imported.
func TestProfileTravelsWithExport(t *testing.T) {
	f := newSampleFixture(t)
	legal, cnpj := "Alfa Engenharia Ltda", "11.222.333/0001-81"
	if _, err := f.svc.UpdateCompanyProfile(ctx, f.a, app.ProfilePatch{LegalName: &legal, CNPJ: &cnpj}); err != nil {
		t.Fatal(err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`)
	if _, err := f.svc.PutCompanyLogo(ctx, f.a, svg, domain.LogoSVG); err != nil {
		t.Fatal(err)
	}
	exp, err := f.svc.ExportCompany(ctx, f.a)
	if err != nil {
		t.Fatal(err)
	}
	if exp.Profile == nil || exp.Profile.CNPJ != "11222333000181" || exp.Profile.LogoType != domain.LogoSVG {
		t.Fatalf("exported profile: %+v", exp.Profile)
	}
	for _, v := range []int{app.CompanyExportV1, app.CompanyExportV2} {
		attrs, err := app.CompanyExportAttributes(exp, v)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(attrs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := app.DecodeCompanyExport(b)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if back.Profile == nil || *back.Profile != *exp.Profile {
			t.Errorf("version %d: profile read back %+v, want %+v", v, back.Profile, exp.Profile)
		}
	}

	// A bad CNPJ and a logo that is not what it says: named, nothing imported.
	bad := *exp
	bp := *exp.Profile
	bp.CNPJ, bp.LogoType = "11.222.333/0001-82", domain.LogoPNG
	bad.Profile = &bp
	_, err = f.svc.ImportCompany(ctx, f.b, &bad)
	e, ok := err.(*domain.Error)
	if !ok || e.Code != domain.EINVALID || !hasField(e, "/profile/cnpj") || !hasField(e, "/profile/logo") {
		t.Fatalf("a bad profile: %v; want EINVALID on /profile/cnpj and /profile/logo", err)
	}
	if _, prof, _ := f.svc.DocumentCompany(ctx, f.b); prof != nil {
		t.Errorf("a refused import wrote a profile: %+v", prof)
	}

	if _, err := f.svc.ImportCompany(ctx, f.b, exp); err != nil {
		t.Fatal(err)
	}
	_, prof, err := f.svc.DocumentCompany(ctx, f.b)
	if err != nil || prof == nil || prof.LegalName != legal || prof.CNPJ != "11222333000181" || string(prof.Logo) != string(svg) {
		t.Errorf("B's profile after the import: %+v, %v", prof, err)
	}
	// Company A has a profile: an import (of B's export, renamed codes
	// aside) keeps it.
	other := "Outra Ltda"
	if _, err := f.svc.UpdateCompanyProfile(ctx, f.b, app.ProfilePatch{LegalName: &other}); err != nil {
		t.Fatal(err)
	}
	expB, err := f.svc.ExportCompany(ctx, f.b)
	if err != nil {
		t.Fatal(err)
	}
	expB.Groups, expB.Resources, expB.Compositions, expB.Budgets = nil, nil, nil, nil
	if _, err := f.svc.ImportCompany(ctx, f.a, expB); err != nil {
		t.Fatal(err)
	}
	if _, prof, _ := f.svc.DocumentCompany(ctx, f.a); prof == nil || prof.LegalName != legal {
		t.Errorf("A's profile after importing B's: %+v; want A's kept", prof)
	}
}
