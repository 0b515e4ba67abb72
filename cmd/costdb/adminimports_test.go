package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// With a server holding the bbolt file, costdb import sinapi-changes and
// costdb import sicro-charges go through its admin listener: the server
// writes them (its cached answers see them), the file need not be freed.
func TestChangesAndChargesThroughServer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	m, _ := startServer(t, db, nil)

	code, out, stderr := cli(t, "import", "sinapi-changes", "--db", db, manutencoes)
	if code != 0 || !strings.Contains(out, "SINAPI 12/2025: 20 changes") {
		t.Fatalf("sinapi-changes beside a running server: exit %d: %s %s", code, out, stderr)
	}
	got, _, err := m.svc.Changes(context.Background(), app.ChangeQuery{Bank: "SINAPI", Month: "12/2025"})
	if err != nil || len(got) != 20 || got[0].Code != "4803" {
		t.Fatalf("the server's change log of 12/2025: %d changes (%v)", len(got), err)
	}

	code, out, stderr = cli(t, "import", "sicro-charges", "--db", db, sicroPackage(t))
	if code != 0 || !strings.Contains(out, "SICRO3 AL 01/2024 desonerado: 101 labour codes") {
		t.Fatalf("sicro-charges beside a running server: exit %d: %s %s", code, out, stderr)
	}
	var n int
	err = m.store.View(context.Background(), func(tx app.Tx) error {
		c, _ := app.Optional[app.ChargesTx](tx)
		tabs, err := c.ChargesTables("SICRO3")
		n = len(tabs)
		for _, tab := range tabs {
			for _, r := range tab.Rows {
				// The sheet's total, carried exactly (checked by hand).
				if tab.Regime == domain.NaoDesonerado && r.Code == "P9801" && r.Total.StringFixed(2) != "109.62" {
					t.Errorf("P9801 sem desoneração through the server: %s, want 109.62", r.Total)
				}
			}
		}
		return err
	})
	if err != nil || n != 2 {
		t.Fatalf("the server's SICRO3 tables: %d (%v), want 2", n, err)
	}
	// A refused table writes nothing through the server either: the
	// same package under another month.
	code, _, stderr = cli(t, "import", "sicro-charges", "--db", db, "--month", "02/2024", sicroPackage(t))
	if code == 0 || !strings.Contains(stderr, "02/2024") {
		t.Errorf("a contradicted month through the server: exit %d: %s", code, stderr)
	}
}
