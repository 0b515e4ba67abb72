package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

func TestEditionID(t *testing.T) {
	for _, tt := range []struct {
		ref domain.BankRef
		id  string
	}{
		{domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}, "SINAPI-MG-2026-08"},
		{domain.BankRef{Name: "sicro3", State: "AL", Month: "01/2024"}, "SICRO3-AL-2024-01"},
		{domain.BankRef{Name: "SICRO3", State: "AL", Month: "01/2024", Region: "Norte"}, "SICRO3-AL-2024-01~Tk9SVEU"},
		{domain.BankRef{Name: "SICRO3", State: "BA", Month: "12/1999", Region: "Sertão / Sul"}, "SICRO3-BA-1999-12~U0VSVMODTyAvIFNVTA"},
		{domain.BankRef{Name: "MY-BANK", State: "SP", Month: "02/2025"}, "MY-BANK-SP-2025-02"},
	} {
		if got := app.EditionID(tt.ref); got != tt.id {
			t.Errorf("EditionID(%+v) = %q, want %q", tt.ref, got, tt.id)
		}
		back, ok := app.ParseEditionID(tt.id)
		if !ok {
			t.Errorf("ParseEditionID(%q) failed", tt.id)
			continue
		}
		if back.EditionKey() != tt.ref.EditionKey() {
			t.Errorf("ParseEditionID(%q) = %+v, key %q, want key %q", tt.id, back, back.EditionKey(), tt.ref.EditionKey())
		}
	}
	if ref, ok := app.ParseEditionID("sinapi-mg-2026-08"); !ok || ref.Name != "SINAPI" || ref.State != "MG" || ref.Month != "08/2026" {
		t.Errorf("lower case id: %+v %v", ref, ok)
	}
	for _, bad := range []string{"", "SINAPI", "-MG-2026-08", "SINAPI-MG-2026-8", "SINAPI-XX-2026-08", "SINAPI-MG-2026-00",
		"SINAPI_MG_2026_08", "SINAPI-MG-2026-08~", "SINAPI-MG-2026-08~%%", "SINAPI-MG-2026-08~ICA"} {
		if ref, ok := app.ParseEditionID(bad); ok {
			t.Errorf("ParseEditionID(%q) = %+v, want no edition", bad, ref)
		}
	}
}

func TestEditionsQuery(t *testing.T) {
	f := newFixture(t)
	eds, total, err := f.svc.Editions(ctx, app.ListQuery{Sort: []app.SortKey{{Field: "version", Desc: true}}})
	if err != nil || total != 2 || eds[0].Month != "09/2026" || eds[1].Month != "08/2026" {
		t.Fatalf("Editions by version, descending: %v %d %v", eds, total, err)
	}
	eds, total, err = f.svc.Editions(ctx, app.ListQuery{Filters: map[string]string{"month": "08/2026", "bank": "sinapi", "state": "mg", "regime": "Não-Desonerado"}})
	if err != nil || total != 1 || eds[0].Month != "08/2026" {
		t.Fatalf("Editions filtered: %v %d %v", eds, total, err)
	}
	_, _, err = f.svc.Editions(ctx, app.ListQuery{Filters: map[string]string{"version": "8/2026", "regime": "x", "code": "1"}, Sort: []app.SortKey{{Field: "code"}}})
	wantCode(t, err, domain.EBADREQUEST)
	var params []string
	for _, fe := range domain.ErrorFields(err) {
		params = append(params, fe.Field)
	}
	if diff := cmp.Diff([]string{"filter[code]", "filter[regime]", "filter[version]", "sort"}, params); diff != "" {
		t.Errorf("bad parameters (-want +got):\n%s", diff)
	}
}

func TestBankItem(t *testing.T) {
	f := newFixture(t)
	aug := domain.BankRef{Name: " sinapi ", State: "mg", Month: "08/2026"}

	it, err := f.svc.BankItem(ctx, aug, "7777", "")
	if err != nil || it.Kind != domain.KindComposition || it.Description != "COMPOSITION SHARING A CODE" || it.Edition.Name != "SINAPI" || it.Edition.State != "MG" {
		t.Fatalf("7777 without a kind: %+v %v", it, err)
	}
	it, err = f.svc.BankItem(ctx, aug, "7777", domain.KindResource)
	if err != nil || it.Kind != domain.KindResource || it.TypeText() != "4" || it.Structure != nil {
		t.Fatalf("7777 as a resource: %+v %v", it, err)
	}
	it, err = f.svc.BankItem(ctx, aug, "0002", "")
	if err != nil || !it.Prices.PND.Equal(dec("0.83")) {
		t.Fatalf("0002: %+v %v", it, err)
	}
	it, err = f.svc.BankItem(ctx, aug, "88309", "")
	if err != nil || it.Structure == nil || len(it.Structure) != 0 || it.StructureItems != 0 {
		t.Fatalf("88309 without structure: %+v %v", it, err)
	}

	_, err = f.svc.BankItem(ctx, domain.BankRef{Name: "SINAPI", State: "MG", Month: "09/2026"}, "0002", "")
	wantCode(t, err, domain.ENOTFOUND) // 0002 is not in 09/2026
	_, err = f.svc.BankItem(ctx, aug, "88309", domain.KindResource)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.BankItem(ctx, domain.BankRef{Name: "SINAPI", State: "MG", Month: "10/2026"}, "0001", "")
	wantCode(t, err, domain.ENOTFOUND)

	_, err = f.svc.BankItem(ctx, domain.BankRef{State: "XX", Month: "2026-08"}, " ", "both")
	wantCode(t, err, domain.EINVALID)
	var fields []string
	for _, fe := range domain.ErrorFields(err) {
		fields = append(fields, fe.Field)
	}
	if diff := cmp.Diff([]string{"/name", "/location", "/version", "/code", "/kind"}, fields); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
}

func TestBankItems(t *testing.T) {
	f := newFixture(t)
	aug := domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}
	list := func(q app.ListQuery) []string {
		t.Helper()
		items, _, err := f.svc.BankItems(ctx, aug, q)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, it := range items {
			out = append(out, string(it.Kind[0])+":"+it.Code)
		}
		return out
	}
	for _, tt := range []struct {
		q    app.ListQuery
		want []string
	}{
		{app.ListQuery{}, []string{"r:0001", "r:0002", "c:7777", "r:7777", "c:88309"}},
		{app.ListQuery{Filters: map[string]string{"kind": "RESOURCE"}}, []string{"r:0001", "r:0002", "r:7777"}},
		{app.ListQuery{Filters: map[string]string{"description": "área média"}}, []string{}},
		{app.ListQuery{Filters: map[string]string{"description": "areia média"}}, []string{"r:0001"}},
		{app.ListQuery{Filters: map[string]string{"search": "sharing"}}, []string{"c:7777", "r:7777"}},
		{app.ListQuery{Filters: map[string]string{"unit": "un"}, Sort: []app.SortKey{{Field: "kind", Desc: true}}}, []string{"r:7777", "c:7777"}},
		{app.ListQuery{Sort: []app.SortKey{{Field: "description"}}, Page: app.Page{Offset: 1, Limit: 2}}, []string{"r:0002", "c:7777"}},
	} {
		if diff := cmp.Diff(tt.want, list(tt.q)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.q, diff)
		}
	}
	_, _, err := f.svc.BankItems(ctx, aug, app.ListQuery{Filters: map[string]string{"kind": "both"}})
	wantCode(t, err, domain.EBADREQUEST)
	_, _, err = f.svc.BankItems(ctx, domain.BankRef{Name: "SINAPI", State: "MG", Month: "07/2026"}, app.ListQuery{})
	wantCode(t, err, domain.ENOTFOUND)
	_, _, err = f.svc.BankItems(ctx, domain.BankRef{Name: "SINAPI", State: "ZZ", Month: "07/2026"}, app.ListQuery{})
	wantCode(t, err, domain.EINVALID)
}
