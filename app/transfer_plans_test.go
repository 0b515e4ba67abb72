package app_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestSchedulesAndIndexesTravelWithExport: a budget's schedule and the
// company's index series are in its export, in both versions of the
// format, and an import gives the schedule to the new budget (node ids
// kept) and adds the series; a bad schedule or a series the company
// already has is named at its pointer and nothing is imported.
func TestSchedulesAndIndexesTravelWithExport(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	sch := &domain.Schedule{Start: "09/2026", Periods: 2, Rows: []domain.ScheduleRow{
		{NodeID: "n1", Shares: []decimal.Decimal{dec("60"), dec("40")}}, {NodeID: "n4", Shares: []decimal.Decimal{dec("0"), dec("100")}}}}
	if _, err := f.svc.PutSchedule(ctx, f.a, pb.ID, sch); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.PutIndex(ctx, f.a, "incc", app.IndexInput{Points: []domain.IndexPoint{
		{Month: "08/2026", Value: dec("1000")}, {Month: "08/2027", Value: dec("1057.321")}}}); err != nil {
		t.Fatal(err)
	}
	exp, err := f.svc.ExportCompany(ctx, f.a)
	if err != nil {
		t.Fatal(err)
	}
	if len(exp.Schedules) != 1 || exp.Schedules[0].BudgetID != pb.ID || len(exp.Indexes) != 1 || exp.Indexes[0].Name != "INCC" {
		t.Fatalf("exported schedules %+v, indexes %+v", exp.Schedules, exp.Indexes)
	}
	for _, v := range []int{app.CompanyExportV1, app.CompanyExportV2} {
		attrs, err := app.CompanyExportAttributes(exp, v)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(attrs)
		back, err := app.DecodeCompanyExport(b)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if len(back.Schedules) != 1 || back.Schedules[0].Periods != 2 || !back.Schedules[0].Rows[0].Shares[1].Equal(dec("40")) ||
			len(back.Indexes) != 1 || !back.Indexes[0].Points["08/2027"].Equal(dec("1057.321")) {
			t.Errorf("version %d read back: %+v %+v", v, back.Schedules, back.Indexes)
		}
	}

	// A row adding up to 99.99: named, nothing imported.
	bad := *exp
	bs := *exp.Schedules[0]
	bs.Rows = []domain.ScheduleRow{{NodeID: "n1", Shares: []decimal.Decimal{dec("60"), dec("39.99")}}, bs.Rows[1]}
	bad.Schedules = []*domain.Schedule{&bs}
	_, err = f.svc.ImportCompany(ctx, f.b, &bad)
	if e, ok := err.(*domain.Error); !ok || e.Code != domain.EINVALID || !hasField(e, "/schedules/0/rows/0/shares") {
		t.Fatalf("a bad schedule: %v", err)
	}
	if list, _, _ := f.svc.Budgets(ctx, f.b, app.ListQuery{}); len(list) != 0 {
		t.Fatalf("a refused import wrote %d budgets", len(list))
	}
	if got, _ := f.svc.Indexes(ctx, f.b); len(got) != 0 {
		t.Fatalf("a refused import wrote index series: %+v", got)
	}

	res, err := f.svc.ImportCompany(ctx, f.b, exp)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.Schedule(ctx, f.b, res.Budgets[0].NewID)
	if err != nil || got.Stale() || got.Periods != 2 || !slices.EqualFunc(got.Rows, sch.Rows, func(a, b domain.ScheduleRow) bool {
		return a.NodeID == b.NodeID && slices.EqualFunc(a.Shares, b.Shares, decimal.Decimal.Equal)
	}) {
		t.Fatalf("B's schedule: %+v, %v", got, err)
	}
	if _, err := f.svc.ScheduleTable(ctx, f.b, res.Budgets[0].NewID); err != nil {
		t.Errorf("B's schedule table: %v", err)
	}
	series, err := f.svc.Index(ctx, f.b, "INCC")
	if err != nil || !series.Points["08/2026"].Equal(dec("1000")) || len(series.Points) != 2 {
		t.Errorf("B's INCC: %+v, %v", series, err)
	}
	// Again: the series is there now (as the codes are).
	only := *exp
	only.Groups, only.Resources, only.Compositions, only.Budgets, only.Schedules = nil, nil, nil, nil, nil
	_, err = f.svc.ImportCompany(ctx, f.b, &only)
	if e, ok := err.(*domain.Error); !ok || !hasField(e, "/indexes/0/name") {
		t.Errorf("importing INCC twice: %v", err)
	}
}
