package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestListQueryErrorsNameParameters: a bad list query is EBADREQUEST with
// one field error per bad parameter, named as JSON:API spells it.
func TestListQueryErrorsNameParameters(t *testing.T) {
	f := newFixture(t)
	q := app.ListQuery{
		Filters: map[string]string{"status": "maybe", "colour": "red", "created_after": "2026-02-30", "code": "ok"},
		Sort:    []app.SortKey{{Field: "price"}, {Field: "code"}, {Field: "code", Desc: true}},
	}
	_, _, err := f.svc.Resources(ctx, f.a, q)
	if got := domain.ErrorCode(err); got != domain.EBADREQUEST {
		t.Fatalf("code %q, want %q (%v)", got, domain.EBADREQUEST, err)
	}
	var got []string
	for _, fe := range domain.ErrorFields(err) {
		got = append(got, fe.Field)
	}
	want := []string{"filter[colour]", "filter[created_after]", "filter[status]", "sort", "sort"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
}

// TestListQueryFiltersSortsAndPages runs one query through the service.
func TestListQueryFiltersSortsAndPages(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ code, desc, unit string }{
		{"10", "Tijolo cerâmico", "UN"}, {"9", "TIJOLO MACIÇO", "UN"}, {"11", "Telha cerâmica", "UN"}, {"2", "Areia", "M3"},
	} {
		in := app.ResourceInput{Code: c.code, Description: c.desc, Type: domain.TypeMaterial, Unit: c.unit}
		if _, err := f.svc.CreateResource(ctx, f.a, in); err != nil {
			t.Fatal(err)
		}
	}
	q := app.ListQuery{
		Filters: map[string]string{"unit": "un", "description": "CERAMIC"},
		Sort:    []app.SortKey{{Field: "code", Desc: true}},
		Page:    app.Page{Offset: 1, Limit: 1},
	}
	list, total, err := f.svc.Resources(ctx, f.a, q)
	if err != nil {
		t.Fatal(err)
	}
	if total != 2 || len(list) != 1 || list[0].Code != "10" {
		t.Errorf("got %d of %d, first %v; want 10, the second of 2", len(list), total, list)
	}
	if _, n, _ := f.svc.Resources(ctx, f.b, app.ListQuery{Filters: map[string]string{"unit": "UN"}}); n != 0 {
		t.Errorf("company B sees %d of company A's resources", n)
	}
}

func TestCatalogs(t *testing.T) {
	f := newFixture(t)
	var names []string
	for _, c := range f.svc.Catalogs() {
		names = append(names, c.Name)
		if c.Description == "" || len(c.Entries) == 0 {
			t.Errorf("catalogue %s has no description or no entries", c.Name)
		}
		for _, e := range c.Entries {
			if e.Code == "" || e.Name == "" {
				t.Errorf("catalogue %s: entry %+v without code or name", c.Name, e)
			}
		}
	}
	want := []string{"resource_types", "units", "composition_classes", "states", "calculation_methods", "banks"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("catalogues (-want +got):\n%s", diff)
	}
	c, err := f.svc.Catalog("calculation_methods")
	if err != nil {
		t.Fatal(err)
	}
	wantMethods := []domain.EnumEntry{
		{Code: "1", Name: "Arredondar com 2 casas decimais"},
		{Code: "2", Name: "Truncar com 2 casas decimais"},
		{Code: "3", Name: "Truncar com 4 casas decimais"},
		{Code: "4", Name: "Sem arredondamento"},
	}
	if diff := cmp.Diff(wantMethods, c.Entries); diff != "" {
		t.Errorf("calculation methods (-want +got):\n%s", diff)
	}
	// A copy: changing it changes nothing for the next caller.
	c.Entries[0].Name = "x"
	if again, _ := f.svc.Catalog("calculation_methods"); again.Entries[0].Name == "x" {
		t.Error("Catalog returned the shared slice")
	}
	if _, err := f.svc.Catalog("colours"); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("unknown catalogue: %v, want not found", err)
	}
}
