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

var manutencoes = testdata + "sinapi-manutencoes-202512/SINAPI_Manutenções_2025_12_cut.xlsx"

// changes reads a month of the SINAPI change log of a database file.
func changes(t *testing.T, db, month string) []domain.BankChange {
	t.Helper()
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out, _, err := app.New(st, nil, app.Config{}).Changes(context.Background(), app.ChangeQuery{Bank: "SINAPI", Month: month})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportSinapiChangesCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sinapi-changes", "--db", db, "--dry-run", manutencoes)
	if code != 0 || !strings.Contains(out, "nothing written") {
		t.Fatalf("dry run: exit %d: %s %s", code, out, stderr)
	}
	if _, err := os.Stat(db); err == nil {
		if got := changes(t, db, "12/2025"); len(got) != 0 {
			t.Fatalf("the dry run wrote %d changes", len(got))
		}
	}
	code, out, stderr = cli(t, "import", "sinapi-changes", "--db", db, manutencoes)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"SINAPI 12/2025: 20 changes", "SINAPI 10/2025: 10 changes", "SINAPI 07/2009: 1 changes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	dec := changes(t, db, "12/2025")
	if len(dec) != 20 || dec[0].Code != "4803" || dec[0].Kind != domain.ChangeDescription {
		t.Errorf("12/2025: %d changes, first %+v", len(dec), dec)
	}
	// A file that is not a change log: an error, nothing more written.
	code, _, stderr = cli(t, "import", "sinapi-changes", "--db", db, al[0])
	if code == 0 || !strings.Contains(stderr, "not a SINAPI manutenções workbook") {
		t.Errorf("a SICRO report read as a change log: exit %d: %s", code, stderr)
	}
	if got := changes(t, db, "12/2025"); len(got) != 20 {
		t.Errorf("after the refused file: %d changes", len(got))
	}
}
