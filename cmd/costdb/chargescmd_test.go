package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

const chargesData = "../../adapters/bankfiles/testdata/sicro-al-202401-package/"

// chargesTables reads every SICRO3 charges table of the bbolt file db.
func chargesTables(t *testing.T, db string) []*domain.ChargesTable {
	t.Helper()
	return bankChargesTables(t, db, "SICRO3")
}

// bankChargesTables reads every charges table of a bank of the bbolt file db.
func bankChargesTables(t *testing.T, db, bank string) []*domain.ChargesTable {
	t.Helper()
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out []*domain.ChargesTable
	err = st.View(context.Background(), func(tx app.Tx) error {
		c, _ := app.Optional[app.ChargesTx](tx)
		out, err = c.ChargesTables(bank)
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

// sinapiChargesTables reads the SINAPI charges tables of a bbolt file.
func sinapiChargesTables(t *testing.T, db string) []*domain.ChargesTable {
	t.Helper()
	return bankChargesTables(t, db, "SINAPI")
}

// Caixa's encargos table (built in its documented layout: no real XLSX
// was found) imports as two tables, sem and com desoneração, each with the
// horista and the mensalista; a contradicting --state is refused and
// nothing written; a national package with the table imports it with its
// editions.
func TestImportSinapiChargesCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "SINAPI_Encargos_Sociais_AC_201304.xlsx")
	if err := workbooktest.SinapiCharges(file, "ACRE VIGÊNCIA A PARTIR DE 04/2013"); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sinapi-charges", "--db", db, "--state", "RS", file)
	if code == 0 || out != "" || !strings.Contains(stderr, "the title rows say AC; the import is for RS") {
		t.Errorf("a contradicting --state: exit %d: %s %s", code, out, stderr)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused table made the database file")
	}
	code, out, stderr = cli(t, "import", "sinapi-charges", "--db", db, file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SINAPI AC 04/2013 nao-desonerado: 2 labour codes (1 horistas, 1 mensalistas), 26 charge items, from ",
		"SINAPI AC 04/2013 desonerado: 2 labour codes (1 horistas, 1 mensalistas), 26 charge items, from ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	tabs := sinapiChargesTables(t, db)
	if len(tabs) != 2 {
		t.Fatalf("%d tables stored, want 2", len(tabs))
	}
	for _, tab := range tabs {
		want := map[domain.Regime]string{domain.NaoDesonerado: "111.51", domain.Desonerado: "82.48"}[tab.Regime]
		if got := tab.Rows[0].Total.StringFixed(2); tab.Rows[0].Code != "HORISTA" || got != want {
			t.Errorf("%s: %s total %s, want %s", tab.Key(), tab.Rows[0].Code, got, want)
		}
	}

	// In a national zip: imported with the editions.
	dir := t.TempDir()
	book := realWorkbook(t, dir, nil)
	zipped := writeZip(t, filepath.Join(dir, "SINAPI-2026-08-formato-xlsx.zip"), map[string][]byte{
		"SINAPI_Referência_2026_08.xlsx":         mustRead(t, book),
		"SINAPI_Encargos_Sociais_AC_201304.xlsx": mustRead(t, file),
		"SINAPI_Encargos_Sociais_AC_201304.pdf":  []byte("%PDF-1.4"),
	})
	pkgDB := filepath.Join(t.TempDir(), "p.db")
	code, out, stderr = cli(t, "import", "sinapi", "--db", pkgDB, zipped)
	if code != 0 || !strings.Contains(out, "SINAPI_Encargos_Sociais_AC_201304.xlsx: SINAPI AC 04/2013 desonerado labour charges, 2 labour codes\n") ||
		!strings.Contains(out, "SINAPI_Encargos_Sociais_AC_201304.pdf skipped: a PDF document, not data") {
		t.Fatalf("the national zip with the table: exit %d: %s %s", code, out, stderr)
	}
	if got := sinapiChargesTables(t, pkgDB); len(got) != 2 {
		t.Errorf("the package's import stored %d SINAPI tables, want 2", len(got))
	}
}
