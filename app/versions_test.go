package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
)

// TestPriceVersion: a frozen version is priced from its own snapshot: its
// footer is the budget's when it was frozen, after the budget changed, and
// a re-pricing comparison of it with itself finds no difference.
func TestPriceVersion(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.svc.FreezeBudget(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	bdi := dec("40")
	if _, err := f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{BDI: &bdi}); err != nil {
		t.Fatal(err)
	}
	now, err := f.svc.Budget(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if now.Totals.TotalWithBDI.Equal(pb.Totals.TotalWithBDI) {
		t.Fatal("the budget's total did not change")
	}
	got, err := f.svc.PriceVersion(v)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Totals.Total.Equal(pb.Totals.Total) || !got.Totals.TotalWithBDI.Equal(pb.Totals.TotalWithBDI) || got.Code != pb.Code {
		t.Errorf("version priced %+v, want the budget's when frozen %+v", got.Totals, pb.Totals)
	}
	d, err := f.svc.CompareVersions(ctx, f.a, pb.ID, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Total.Diff.IsZero() || d.Total.DiffPct == nil || !d.Total.DiffPct.IsZero() || !d.Total.Before.Equal(pb.Totals.TotalWithBDI) {
		t.Errorf("a version against itself: %+v", d.Total)
	}
}
