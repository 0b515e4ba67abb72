package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestImportCompanyBatch: an export of many resources and compositions
// imports whole (every code found, the lists counted and in code order);
// a code two records of one export share is named at the second one's
// pointer, with every other problem, and nothing is written.
func TestImportCompanyBatch(t *testing.T) {
	f := newSampleFixture(t)
	const n = 2000
	exp := generatedExport(n)
	res, err := f.svc.ImportCompany(ctx, f.a, exp)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resources) != n || len(res.Compositions) != n/20 || res.Resources[7].OldID != "r7" {
		t.Fatalf("summary: %d resources, %d compositions", len(res.Resources), len(res.Compositions))
	}
	list, total, err := f.svc.Resources(ctx, f.a, app.ListQuery{Sort: []app.SortKey{{Field: "code", Desc: true}}, Page: app.Page{Limit: 3}})
	if err != nil || total != n || len(list) != 3 || list[0].Code != "R001999" || list[2].Code != "R001997" {
		t.Fatalf("resources by code, descending: %d of %d, %v", len(list), total, err)
	}
	r, err := f.svc.ResourceByCode(ctx, f.a, "R000123")
	if err != nil || r.ID != res.Resources[123].NewID {
		t.Fatalf("R000123: %+v, %v", r, err)
	}
	c, err := f.svc.Composition(ctx, f.a, res.Compositions[9].NewID)
	if err != nil || c.Code != "C000009" {
		t.Fatalf("composition 9: %+v, %v", c, err)
	}

	// Company B: the second R000005 and the second C000002 (MG) are
	// named, with a resource without a unit; nothing is written.
	bad := generatedExport(40)
	bad.Resources[30].Code = "R000005"
	bad.Resources[31].Unit = ""
	bad.Compositions[1].Code = "C000000"
	_, err = f.svc.ImportCompany(ctx, f.b, bad)
	e, ok := err.(*domain.Error)
	if !ok || e.Code != domain.EINVALID || !hasField(e, "/Resources/30/code") || !hasField(e, "/Resources/31/unit") ||
		!hasField(e, "/Compositions/1/code") || hasField(e, "/Resources/5/code") || hasField(e, "/Compositions/0/code") {
		t.Fatalf("duplicates in one export: %v", err)
	}
	if list, total, _ := f.svc.Resources(ctx, f.b, app.ListQuery{}); total != 0 || len(list) != 0 {
		t.Fatalf("a refused import wrote %d resources", total)
	}
	if list, total, _ := f.svc.Compositions(ctx, f.b, app.ListQuery{}); total != 0 || len(list) != 0 {
		t.Fatalf("a refused import wrote %d compositions", total)
	}
	// The same export with its codes apart imports.
	bad.Resources[30].Code, bad.Resources[31].Unit, bad.Compositions[1].Code = "R000030", "UN", "C000001"
	if _, err := f.svc.ImportCompany(ctx, f.b, bad); err != nil {
		t.Fatal(err)
	}
}
