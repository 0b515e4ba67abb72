package app_test

import (
	"encoding/json"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestBudgetLabourChargesTravel: a budget's own labour charges are kept by
// the company export in both format versions and by its import, by a
// frozen version, and a PATCH with null clears them.
func TestBudgetLabourChargesTravel(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	in := sampleBudget(false)
	in.LabourCharges = decimal.NewNullDecimal(dec("84.27"))
	pb, err := f.svc.CreateBudget(ctx, f.a, in)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := f.svc.ExportCompany(ctx, f.a)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int{app.CompanyExportV1, app.CompanyExportV2} {
		attrs, err := app.CompanyExportAttributes(exp, v)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(attrs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := app.DecodeCompanyExport(raw)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if len(back.Budgets) != 1 || !back.Budgets[0].LabourCharges.Valid || !back.Budgets[0].LabourCharges.Decimal.Equal(dec("84.27")) {
			t.Errorf("version %d: budgets read back without the charges: %s", v, raw)
		}
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
		if !b.LabourCharges.Valid || !b.LabourCharges.Decimal.Equal(dec("84.27")) {
			t.Errorf("imported %s with charges %v", b.Code, b.LabourCharges)
		}
	}
	null := decimal.NullDecimal{}
	up, err := f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{LabourCharges: &null})
	if err != nil || up.LabourCharges.Valid {
		t.Errorf("PATCH null: %v, %v", up, err)
	}
	bad := decimal.NewNullDecimal(dec("1001"))
	_, err = f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{LabourCharges: &bad})
	if e, ok := err.(*domain.Error); !ok || e.Code != domain.EINVALID || !hasField(e, "/labour_charges") {
		t.Errorf("1001 %%: %v; want EINVALID on /labour_charges", err)
	}
}
