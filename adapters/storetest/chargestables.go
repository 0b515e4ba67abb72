package storetest

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// testChargesTables checks the reference banks' labour charges tables
// (app.ChargesTx): put, read back exactly (decimals with their scale, the
// items in order, a table without items kept without), listed per bank in
// key order, replaced whole by a put of the same key, a missing key
// ENOTFOUND, a bad table refused with every field at once and nothing
// written.
func testChargesTables(t *testing.T, s app.Store) {
	d := func(v string) decimal.Decimal { return decimal.RequireFromString(v) }
	sem := &domain.ChargesTable{Bank: "SICRO3", State: "AL", Month: "01/2024", Regime: domain.NaoDesonerado,
		Items: []string{"A1", "B1", "D2"},
		Rows: []domain.ChargesRow{
			{Code: "P9801", Description: "Ajudante", Unit: "h", Items: []decimal.Decimal{d("20.00"), d("17.8712345678"), d("0.7")}, Total: d("109.6200000001")},
			{Code: "P9949", Description: "Topógrafo", Unit: "mês", Monthly: true, Items: []decimal.Decimal{d("20"), d("0"), d("0.68")}, Total: d("77.65")},
		}}
	com := &domain.ChargesTable{Bank: "SICRO3", State: "AL", Month: "01/2024", Regime: domain.Desonerado,
		Rows: []domain.ChargesRow{{Code: "P9801", Description: "Ajudante", Unit: "h", Total: d("85.2500")}}}
	older := &domain.ChargesTable{Bank: "SICRO3", State: "AL", Month: "12/2023", Regime: domain.NaoDesonerado,
		Rows: []domain.ChargesRow{{Code: "P9801", Unit: "h", Total: d("1")}}}
	other := &domain.ChargesTable{Bank: "SINAPI", State: "AL", Month: "01/2024", Regime: domain.NaoDesonerado,
		Rows: []domain.ChargesRow{{Code: "HORISTA", Unit: "h", Total: d("113.76")}}}
	chargesTx := func(tx app.Tx) app.ChargesTx {
		c, ok := app.Optional[app.ChargesTx](tx)
		if !ok {
			t.Fatal("the store offers no app.ChargesTx")
		}
		return c
	}
	update(t, s, func(tx app.Tx) error {
		for _, c := range []*domain.ChargesTable{com, sem, other, older} {
			if err := chargesTx(tx).PutChargesTable(c); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx app.Tx) error {
		got, err := chargesTx(tx).ChargesTable(domain.ChargesKey("SICRO3", "AL", "01/2024", domain.NaoDesonerado))
		if err != nil {
			return err
		}
		diff(t, "table read back", sem, got)
		for i, r := range got.Rows {
			for j, p := range r.Items {
				if p.String() != sem.Rows[i].Items[j].String() || p.Exponent() != sem.Rows[i].Items[j].Exponent() {
					t.Errorf("row %d item %d = %s (exp %d), want %s as put", i, j, p, p.Exponent(), sem.Rows[i].Items[j])
				}
			}
			if r.Total.Exponent() != sem.Rows[i].Total.Exponent() {
				t.Errorf("row %d total %s, scale not kept", i, r.Total)
			}
		}
		list, err := chargesTx(tx).ChargesTables("SICRO3")
		if err != nil {
			return err
		}
		diff(t, "SICRO3 tables in key order", []*domain.ChargesTable{older, com, sem}, list)
		_, err = chargesTx(tx).ChargesTable(domain.ChargesKey("SICRO3", "PE", "01/2024", domain.NaoDesonerado))
		wantCode(t, "missing table", err, domain.ENOTFOUND)
		none, err := chargesTx(tx).ChargesTables("ORSE")
		if err != nil || len(none) != 0 || none == nil {
			t.Errorf("a bank without tables: %v, %v (want an empty list)", none, err)
		}
		return nil
	})
	replaced := &domain.ChargesTable{Bank: "SICRO3", State: "AL", Month: "01/2024", Regime: domain.NaoDesonerado,
		Rows: []domain.ChargesRow{{Code: "P9803", Description: "Servente", Unit: "h", Total: d("76.07")}}}
	update(t, s, func(tx app.Tx) error { return chargesTx(tx).PutChargesTable(replaced) })
	bad := &domain.ChargesTable{Bank: "sicro", State: "ALA", Month: "13/2024", Items: []string{"A1"},
		Rows: []domain.ChargesRow{{Code: "X", Items: []decimal.Decimal{d("1"), d("2")}, Total: d("-1")}}}
	err := s.Update(bg(), func(tx app.Tx) error { return chargesTx(tx).PutChargesTable(bad) })
	wantCode(t, "bad table", err, domain.EINVALID)
	if n := len(domain.ErrorFields(err)); n < 5 {
		t.Errorf("bad table: %d field errors (%v), want every field at once", n, err)
	}
	view(t, s, func(tx app.Tx) error {
		got, err := chargesTx(tx).ChargesTable(replaced.Key())
		if err != nil {
			return err
		}
		diff(t, "replaced table", replaced, got)
		list, err := chargesTx(tx).ChargesTables("SICRO3")
		if err != nil {
			return err
		}
		if len(list) != 3 {
			t.Errorf("%d SICRO3 tables after the bad put, want 3", len(list))
		}
		return nil
	})
}
