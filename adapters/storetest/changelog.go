package storetest

import (
	"reflect"
	"sort"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testChangeLog checks app.ChangeLogTx, for a store that offers it: a
// month's log is kept in its order and whole, replaced by the next put of
// the same month, kept apart from other months and banks, and its months are
// listed oldest first.
func testChangeLog(t *testing.T, s app.Store) {
	var supported bool
	view(t, s, func(tx app.Tx) error { _, supported = tx.(app.ChangeLogTx); return nil })
	if !supported {
		t.Skip("the store keeps no change logs")
	}
	dec := []domain.BankChange{
		{Bank: "SINAPI", Month: "12/2025", Code: "4803", Description: "RODAPE DE BORRACHA LISO, H = *70* MM", Kind: domain.ChangeDescription, Text: "ALTERAÇÃO DE DESCRIÇÃO"},
		{Bank: "SINAPI", Month: "12/2025", Composition: true, Code: "95995", Description: "EXECUÇÃO DE PAVIMENTO", Kind: domain.ChangeDeactivated, Text: "DESATIVAÇÃO"},
		{Bank: "SINAPI", Month: "12/2025", Code: "00001", Description: "", Kind: domain.ChangeCreated, Text: "CRIAÇÃO DE INSUMO SEM PREÇO"},
	}
	oct := []domain.BankChange{{Bank: "SINAPI", Month: "10/2025", State: "PE", Composition: true, Code: "88249", Description: "AUXILIAR", Kind: domain.ChangeCoefficients, Text: "ALTERAÇÃO DE ITENS/COEFICIENTES"}}
	other := []domain.BankChange{{Bank: "ORSE", Month: "01/2025", Code: "1", Kind: domain.ChangeUnit, Text: "x"}}
	update(t, s, func(tx app.Tx) error {
		c := tx.(app.ChangeLogTx)
		if err := c.PutChanges("SINAPI", "12/2025", dec); err != nil {
			return err
		}
		if err := c.PutChanges("SINAPI", "10/2025", oct); err != nil {
			return err
		}
		return c.PutChanges("ORSE", "01/2025", other)
	})
	read := func(bank, month string) []domain.BankChange {
		var got []domain.BankChange
		view(t, s, func(tx app.Tx) (err error) { got, err = tx.(app.ChangeLogTx).Changes(bank, month); return err })
		return got
	}
	if got := read("SINAPI", "12/2025"); !reflect.DeepEqual(got, dec) {
		t.Errorf("Changes(12/2025)\n got %+v\nwant %+v", got, dec)
	}
	if got := read("SINAPI", "10/2025"); !reflect.DeepEqual(got, oct) {
		t.Errorf("Changes(10/2025)\n got %+v\nwant %+v", got, oct)
	}
	if got := read("SINAPI", "11/2025"); got == nil || len(got) != 0 {
		t.Errorf("Changes(11/2025) = %#v, want empty, not nil", got)
	}
	var months []string
	view(t, s, func(tx app.Tx) (err error) { months, err = tx.(app.ChangeLogTx).ChangeMonths("SINAPI"); return err })
	if want := []string{"10/2025", "12/2025"}; !reflect.DeepEqual(months, want) {
		t.Errorf("ChangeMonths = %v, want %v", months, want)
	}
	// A new import of the month replaces its log whole; a rolled-back one
	// leaves it as it was.
	update(t, s, func(tx app.Tx) error { return tx.(app.ChangeLogTx).PutChanges("SINAPI", "12/2025", dec[1:2]) })
	if got := read("SINAPI", "12/2025"); !reflect.DeepEqual(got, dec[1:2]) {
		t.Errorf("after the replacement: %+v", got)
	}
	err := s.Update(bg(), func(tx app.Tx) error {
		if err := tx.(app.ChangeLogTx).PutChanges("SINAPI", "12/2025", dec); err != nil {
			return err
		}
		return domain.Errorf(domain.EINVALID, "roll back")
	})
	if err == nil {
		t.Fatal("the update did not fail")
	}
	if got := read("SINAPI", "12/2025"); !reflect.DeepEqual(got, dec[1:2]) {
		t.Errorf("after a rolled-back put: %+v", got)
	}
	// A change of another month than the one put is refused, nothing written.
	err = s.Update(bg(), func(tx app.Tx) error { return tx.(app.ChangeLogTx).PutChanges("SINAPI", "09/2025", oct) })
	if err == nil {
		t.Error("a change of 10/2025 put as 09/2025 was accepted")
	}
	if got := read("SINAPI", "09/2025"); len(got) != 0 {
		t.Errorf("09/2025 holds %+v", got)
	}
	if got := read("ORSE", "01/2025"); !reflect.DeepEqual(got, other) {
		t.Errorf("another bank's log: %+v", got)
	}
}

// testChangeLogWhereUsed checks app.Service.WhereUsed on the store: a
// changed SINAPI code is found in the own compositions and budgets of the
// caller's company that use it (same kind: resource or composition), never
// in another company's.
func testChangeLogWhereUsed(t *testing.T, s app.Store) {
	var supported bool
	view(t, s, func(tx app.Tx) error { _, supported = tx.(app.ChangeLogTx); return nil })
	if !supported {
		t.Skip("the store keeps no change logs")
	}
	update(t, s, newWorld().put)
	svc := app.New(s, nil, app.Config{})
	changes := []domain.BankChange{
		{Month: "12/2025", Code: "00001", Kind: domain.ChangeDeactivated, Text: "DESATIVAÇÃO"},                               // a resource of every composition
		{Month: "12/2025", Code: "00001", Composition: true, Kind: domain.ChangeDescription, Text: "ALTERAÇÃO DE DESCRIÇÃO"}, // no composition 00001 is used
		{Month: "12/2025", Code: "89306", Composition: true, Kind: domain.ChangeCoefficients, Text: "ALTERAÇÃO DE ITENS/COEFICIENTES"},
		{Month: "12/2025", Code: "4803", Kind: domain.ChangeUnit, Text: "ALTERAÇÃO DE UNIDADE"}, // used nowhere
		{Month: "11/2025", Code: "34586", Kind: domain.ChangeDeactivated, Text: "DESATIVAÇÃO"},  // another month
	}
	if _, err := svc.ImportChangeLog(bg(), "sinapi", changes); err != nil {
		t.Fatal(err)
	}
	ids := func(refs []app.UseRef) []string {
		out := []string{}
		for _, r := range refs {
			out = append(out, r.ID)
		}
		sort.Strings(out)
		return out
	}
	type use struct {
		code        string
		comps, buds []string
	}
	uses := func(company string, q app.ChangeQuery) []use {
		t.Helper()
		got, err := svc.WhereUsed(bg(), domain.Principal{CompanyID: company}, q)
		if err != nil {
			t.Fatal(err)
		}
		out := []use{}
		for _, u := range got {
			out = append(out, use{u.Change.Code, ids(u.Compositions), ids(u.Budgets)})
		}
		return out
	}
	month := app.ChangeQuery{Bank: "SINAPI", Month: "12/2025"}
	if got, want := uses(coA, month), []use{{"00001", []string{cpA1, cpA2}, []string{}}, {"89306", []string{}, []string{buA1, buA2}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("company A, 12/2025:\n got %+v\nwant %+v", got, want)
	}
	if got, want := uses(coB, month), []use{{"00001", []string{cpB1}, []string{}}, {"89306", []string{}, []string{buB1}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("company B, 12/2025:\n got %+v\nwant %+v", got, want)
	}
	one := month
	one.Code = "89306"
	if got, want := uses(coA, one), []use{{"89306", []string{}, []string{buA1, buA2}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("company A, code 89306:\n got %+v\nwant %+v", got, want)
	}
	deact := month
	deact.Kinds = []domain.ChangeKind{domain.ChangeDeactivated}
	if got, want := uses(coA, deact), []use{{"00001", []string{cpA1, cpA2}, []string{}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("company A, deactivated:\n got %+v\nwant %+v", got, want)
	}
	nov := app.ChangeQuery{Bank: "SINAPI", Month: "11/2025"}
	if got, want := uses(coA, nov), []use{{"34586", []string{}, []string{buA1, buA2}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("company A, 11/2025:\n got %+v\nwant %+v", got, want)
	}
	if got := uses("01HZXCO0000000000000000ZZZ", month); len(got) != 0 {
		t.Errorf("a company without records: %+v", got)
	}
	// The feed: paged, filtered.
	page, total, err := svc.Changes(bg(), app.ChangeQuery{Bank: "SINAPI", Month: "12/2025", Offset: 1, Limit: 2})
	if err != nil || total != 4 || len(page) != 2 || page[0].Code != "00001" || !page[0].Composition || page[1].Code != "89306" {
		t.Errorf("Changes page: %+v total %d err %v", page, total, err)
	}
	_, _, err = svc.Changes(bg(), app.ChangeQuery{Bank: "SINAPI", Month: "13/2025", Kinds: []domain.ChangeKind{"renamed"}, Offset: -1})
	if fields := domain.ErrorFields(err); len(fields) != 3 {
		t.Errorf("a bad query: %v (fields %v), want 3 field errors", err, fields)
	}
}
