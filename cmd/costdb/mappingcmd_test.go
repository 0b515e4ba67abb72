package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		"SEINFRA-CE CE 03/2021: " + seinfraSample + ", 16 rows (0 without a price, left out): 16 resources, 0 compositions\n",
		"edition SEINFRA-CE CE 03/2021 now: 16 resources, 0 compositions; regimes nao-desonerado\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	eds := editions(t, db)
	if len(eds) != 1 || eds[0].Key() != "SEINFRA-CE/CE/2021-03/" || eds[0].Resources != 16 {
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
