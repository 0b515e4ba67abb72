package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

const chargesData = "../../adapters/bankfiles/testdata/sicro-al-202401-package/"

// chargesTables reads every SICRO3 charges table of the bbolt file db.
func chargesTables(t *testing.T, db string) []*domain.ChargesTable {
	t.Helper()
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out []*domain.ChargesTable
	err = st.View(context.Background(), func(tx app.Tx) error {
		c, _ := app.Optional[app.ChargesTx](tx)
		out, err = c.ChargesTables("SICRO3")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A SICRO package folder: costdb import sicro-charges imports its two
// encargos tables (not skipped) and lists the other files as skipped;
// costdb import sicro of the same folder imports them with its editions. The totals read back are those of the sheet (checked by hand:
// P9801 Ajudante 109.62% sem desoneração; P9803 52.72% com).
func TestImportSicroChargesPackage(t *testing.T) {
	dir := sicroPackage(t)
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sicro-charges", "--db", db, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SICRO3 AL 01/2024 nao-desonerado: 101 labour codes (44 horistas, 57 mensalistas), 26 charge items, from ",
		"SICRO3 AL 01/2024 desonerado: 101 labour codes (44 horistas, 57 mensalistas), 26 charge items, from ",
		"Relatório Sintético de Materiais.xlsx skipped: a SICRO file (SICRO materials): import it with costdb import sicro\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Encargos Sociais.xlsx skipped") {
		t.Errorf("an encargos table was skipped:\n%s", out)
	}
	tabs := chargesTables(t, db)
	if len(tabs) != 2 {
		t.Fatalf("%d tables stored, want 2", len(tabs))
	}
	byRegime := map[domain.Regime]map[string]domain.ChargesRow{}
	for _, tab := range tabs {
		rows := map[string]domain.ChargesRow{}
		for _, r := range tab.Rows {
			rows[r.Code] = r
		}
		byRegime[tab.Regime] = rows
		if len(tab.Rows) != 101 || len(tab.Items) != 26 {
			t.Errorf("%s: %d rows, %d items", tab.Key(), len(tab.Rows), len(tab.Items))
		}
	}
	if got := byRegime[domain.NaoDesonerado]["P9801"].Total.StringFixed(2); got != "109.62" {
		t.Errorf("P9801 sem desoneração total %s, want 109.62", got)
	}
	if got := byRegime[domain.Desonerado]["P9803"].Total.StringFixed(2); got != "52.72" {
		t.Errorf("P9803 com desoneração total %s, want 52.72", got)
	}

	// costdb import sicro of the same package imports its tables too.
	code, out, _ = cli(t, "import", "sicro", "--db", filepath.Join(t.TempDir(), "e.db"), dir)
	if want := "Encargos Sociais.xlsx: SICRO3 AL 01/2024 nao-desonerado labour charges, 101 labour codes\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("costdb import sicro of the package: exit %d, output without %q:\n%s", code, want, out)
	}
}

// A table whose titles contradict --state, --month or its file name is
// refused naming both values, and nothing is written (the database file is
// not even made).
func TestImportSicroChargesContradiction(t *testing.T) {
	sem := chargesData + "AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx"
	renamed := filepath.Join(t.TempDir(), "PE 01-2024 Relatório Sintético de Encargos Sociais.xlsx")
	copyTo(t, sem, renamed)
	regime := filepath.Join(t.TempDir(), "AL 01-2024 Relatório Sintético de Encargos Sociais - com desoneração.xlsx")
	copyTo(t, sem, regime)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--state", "PE", sem}, "the title rows say AL; the import is for PE"},
		{[]string{"--month", "02/2024", sem}, "the title rows say 01/2024; the import is for 02/2024"},
		{[]string{renamed}, "the file says state AL, the file name says PE"},
		{[]string{regime}, "the file says nao-desonerado, the file name says desonerado"},
	} {
		db := filepath.Join(t.TempDir(), "c.db")
		code, out, stderr := cli(t, append([]string{"import", "sicro-charges", "--db", db}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want an error saying %q", tc.args, code, stderr, out, tc.want)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("%v: the database was made (%v)", tc.args, err)
		}
	}
}
