package boltstore_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	bolt "go.etcd.io/bbolt"
)

// TestBackupVerifyRestore: WriteTo copies a database Verify accepts and
// Restore puts back; Verify refuses what is not a whole costdb database.
func TestBackupVerifyRestore(t *testing.T) {
	dir := t.TempDir()
	st, err := boltstore.Open(filepath.Join(dir, "a.db"), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.Update(ctx, func(tx app.Tx) error { return tx.PutSetting("k", []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := st.WriteTo(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	st.Close()
	backup := filepath.Join(dir, "backup.db")
	_ = os.WriteFile(backup, buf.Bytes(), 0o600)
	if err := boltstore.Verify(backup); err != nil {
		t.Fatalf("Verify(backup) = %v", err)
	}

	other := filepath.Join(dir, "other.db") // a bbolt file, not costdb's
	db, _ := bolt.Open(other, 0o600, nil)
	_ = db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("x")); return err })
	db.Close()
	half := filepath.Join(dir, "half.db")
	_ = os.WriteFile(half, buf.Bytes()[:buf.Len()/2], 0o600)
	text := filepath.Join(dir, "text.db")
	_ = os.WriteFile(text, []byte("not a database"), 0o600)
	for name, path := range map[string]string{"another bbolt file": other, "a truncated copy": half, "text": text, "nothing": filepath.Join(dir, "none")} {
		if err := boltstore.Verify(path); err == nil {
			t.Errorf("Verify accepted %s", name)
		}
	}

	to := filepath.Join(dir, "restored.db")
	if err := boltstore.Restore(half, to, false); err == nil {
		t.Error("Restore took a truncated copy")
	}
	if err := boltstore.Restore(backup, to, false); err != nil {
		t.Fatal(err)
	}
	if err := boltstore.Restore(backup, to, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("Restore over an existing database without replace: %v", err)
	}
	held, err := boltstore.Open(to, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := boltstore.Restore(backup, to, true); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("Restore over a held database: %v", err)
	}
	var got []byte
	_ = held.View(ctx, func(tx app.Tx) error { got, err = tx.Setting("k"); return err })
	held.Close()
	if string(got) != "v" {
		t.Errorf("restored setting = %q", got)
	}
}
