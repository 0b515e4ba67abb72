package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

const (
	seinfraMapping = "../../adapters/bankfiles/mappings/seinfra-ce.json"
	seinfraSample  = testdata + "agency/seinfra-ce-027-insumos-cut.xlsx"
)

// TestImportMappingCommand imports the real SEINFRA-CE sample through the
// shipped mapping, then refuses a mapping whose column the table lacks
// and a table with a bad row, the database file untouched.
func TestImportMappingCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "--mapping", seinfraMapping, "--db", db, "--month", "03/2021", seinfraSample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SEINFRA CE 03/2021: " + seinfraSample + ", 16 rows (0 without a price, left out): 16 resources, 0 compositions\n",
		"edition SEINFRA CE 03/2021 now: 16 resources, 0 compositions; regimes nao-desonerado\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	eds := editions(t, db)
	if len(eds) != 1 || eds[0].Key() != "SEINFRA/CE/2021-03/" || eds[0].Resources != 16 {
		t.Fatalf("editions = %+v", eds)
	}

	before := hashFile(t, db)
	b, err := os.ReadFile(seinfraMapping)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(b), `"title": "unid"`, `"title": "unidade"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = cli(t, "import", "--mapping", bad, "--db", db, "--month", "04/2021", seinfraSample)
	if code != 1 || out != "" || !strings.Contains(stderr, `line 1: unit: no column "unidade" in the header (ID | DESCRIPTION | UNID | PRICE)`) {
		t.Errorf("bad mapping: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = cli(t, "import", "--mapping", seinfraMapping, "--db", db, "--state", "PE", "--month", "04/2021", seinfraSample)
	if code != 1 || out != "" || !strings.Contains(stderr, "--state PE contradicts the mapping's state CE") {
		t.Errorf("another state: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, _, stderr = cli(t, "import", "--mapping", seinfraMapping, "--db", db)
	if code != 2 || !strings.Contains(stderr, "exactly one FILE") {
		t.Errorf("no file: exit %d, stderr %q", code, stderr)
	}
	if hashFile(t, db) != before {
		t.Error("the database file changed")
	}
}

// TestImportMappingEngines imports the real SEINFRA-CE sample through the
// command on both storage engines and prices an own composition made as
// SEINFRA's C0010 over it: the same 64.85 SEINFRA publishes, on each.
func TestImportMappingEngines(t *testing.T) {
	b, err := os.ReadFile(seinfraMapping)
	if err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(t.TempDir(), "single.json") // both regimes alike: a composition shows both
	if err := os.WriteFile(single, []byte(strings.Replace(string(b), `"nao-desonerado"`, `"single"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"bolt", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "c.db")
			if engine == "postgres" {
				db = pgtest.NewDatabase(t)
			}
			if code, _, stderr := cli(t, "import", "--mapping", single, "--db", db, "--month", "03/2021", seinfraSample); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			ctx := context.Background()
			st, err := openStore(ctx, db, boltstore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			svc := app.New(st, nil, app.Config{})
			nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Construtora CE", Email: "o@ce.com"})
			if err != nil {
				t.Fatal(err)
			}
			p := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
			c, err := svc.CreateComposition(ctx, p, app.CompositionInput{Code: "C0010", Description: "Acionador manual instalado", Unit: "UN", State: "CE"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.AddBanks(ctx, p, c.ID, []app.BankInput{{Name: "SEINFRA", State: "CE", Month: "03/2021"}}); err != nil {
				t.Fatal(err)
			}
			var items []app.ItemInput
			for _, it := range [][2]string{{"I2320", "0.35"}, {"I0043", "0.35"}, {"I0005", "1"}, {"I1566", "2"}} {
				items = append(items, app.ItemInput{Bank: "SEINFRA", Code: it[0], Quantity: decimal.RequireFromString(it[1])})
			}
			pc, err := svc.AddItems(ctx, p, c.ID, items)
			if err != nil {
				t.Fatal(err)
			}
			if want := decimal.RequireFromString("64.85"); pc.Incomplete() || !pc.Prices.PND.Equal(want) || !pc.Prices.PD.Equal(want) {
				t.Errorf("priced %s / %s (missing %v), want 64.85", pc.Prices.PND, pc.Prices.PD, pc.Missing)
			}
		})
	}
}
