package pgstore_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestUpgradeCompositionItems: a database at schema 9 keeps a bank
// composition's structure as one row per item; opening it with this
// costdb (migration 10) moves each structure into its composition's row,
// in the order of its items, with the coefficients exact; a composition
// with an empty structure keeps it empty, one without keeps none.
func TestUpgradeCompositionItems(t *testing.T) {
	url, conn := databaseAt(t, 9)
	const ed = "SINAPI/MG/2026-08"
	for _, q := range []string{
		`INSERT INTO bank_compositions (edition_key, code, description, unit, class, cost_pnd, cost_pd, has_items) VALUES
			('` + ed + `', '87503', 'ALVENARIA', 'M2', 'ALVE', 43.64, 40.95, true),
			('` + ed + `', '90000', 'VAZIA', 'UN', 'X', 1, 1, true),
			('` + ed + `', '90001', 'SEM ESTRUTURA', 'UN', 'X', 2, 2, false)`,
		`INSERT INTO bank_composition_items (edition_key, composition_code, pos, kind, code, coefficient) VALUES
			('` + ed + `', '87503', 1, 'resource', '34586', 10.0000),
			('` + ed + `', '87503', 0, 'resource', '88309', 0.5000),
			('` + ed + `', '87503', 2, 'composition', '87292', 0.0123456789)`,
	} {
		if _, err := conn.Exec(bg, q); err != nil {
			t.Fatal(err)
		}
	}
	s, err := pgstore.Open(bg, url, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []*domain.BankComposition
	if err := s.View(bg, func(tx app.Tx) error {
		got, err = tx.BankCompositions(ed)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, c := range got {
		var items []string
		for _, it := range c.Items {
			items = append(items, string(it.Kind)+" "+it.Code+" "+it.Coefficient.String())
		}
		lines = append(lines, c.Code+": "+strings.Join(items, ", ")+" nil="+strconv.FormatBool(c.Items == nil))
	}
	want := []string{
		"87503: resource 88309 0.5, resource 34586 10, composition 87292 0.0123456789 nil=false",
		"90000:  nil=false",
		"90001:  nil=true",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("compositions after the upgrade (-want +got):\n%s", diff)
	}
	var exists bool
	if err := conn.QueryRow(bg, `SELECT to_regclass('bank_composition_items') IS NOT NULL`).Scan(&exists); err != nil || exists {
		t.Errorf("bank_composition_items still there: %v %v", exists, err)
	}
}
