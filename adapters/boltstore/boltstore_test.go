package boltstore

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/adapters/storetest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) app.Store {
		return open(t, filepath.Join(t.TempDir(), "costdb.db"))
	})
}

func TestContractReopen(t *testing.T) {
	storetest.RunReopen(t, func(t *testing.T, path string) app.Store { return open(t, path) })
}

func TestOpenHeldFileIsUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	defer s.Close()

	start := time.Now()
	second, err := Open(path, Options{Timeout: 100 * time.Millisecond})
	elapsed := time.Since(start)
	if err == nil {
		second.Close()
		t.Fatal("second Open of a held file succeeded")
	}
	if code := domain.ErrorCode(err); code != domain.EUNAVAILABLE {
		t.Errorf("error code = %q (%v), want %q", code, err, domain.EUNAVAILABLE)
	}
	msg := domain.ErrorMessage(err)
	for _, want := range []string{path, "in use by another process", "costdb server"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	if elapsed > time.Second {
		t.Errorf("second Open took %v with a 100ms timeout", elapsed)
	}

	// Once the holder closes the file, it opens again.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path, Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after the holder closed: %v", err)
	}
	again.Close()
}

func TestNewerSchemaIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	if err := s.Update(context.Background(), func(tx app.Tx) error {
		return tx.PutSetting("kept", []byte("yes"))
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	setSchemaVersion(t, path, "4")

	_, err := Open(path, Options{})
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open of a version 4 file = %v, want ErrNewerSchema", err)
	}
	for _, want := range []string{path, "schema version 4", "version 3", "upgrade costdb"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}

	// The refused file is left as it was: version 4, data intact.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keySchemaVersion); string(v) != "4" {
			t.Errorf("schema version after a refused Open = %q, want 4", v)
		}
		if v := tx.Bucket(bucketSettings).Get([]byte("kept")); string(v) != "yes" {
			t.Errorf("setting after a refused Open = %q, want yes", v)
		}
		return nil
	})
}

func TestBadSchemaVersionIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	open(t, path).Close()
	setSchemaVersion(t, path, "one")
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "bad schema version") {
		t.Fatalf("Open with a garbled schema version = %v, want a bad schema version error", err)
	}
}

func TestForeignBoltFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("something-else"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "not a costdb database") {
		t.Fatalf("Open of another program's bolt file = %v, want a not-a-costdb-database error", err)
	}
}

func TestNewFileHasSchemaVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keySchemaVersion); string(v) != "3" {
			t.Errorf("schema version = %q, want 3", v)
		}
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				t.Errorf("bucket %s missing", name)
			}
		}
		return nil
	})
}

// TestOpenAddsNewBuckets: a version-1 file written before budgets existed
// gets their buckets when it is opened, and the list indexes of version 2
// and the shared structures of version 3.
func TestOpenAddsNewBuckets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]bool{"budgets": true, "budgets_by_code": true, "budgets_by_company": true, "structures": true, "structure_refs": true}
	for _, name := range listBuckets {
		old[string(name)] = true
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if old[string(name)] {
				continue
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte("1"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	err = s.Update(context.Background(), func(tx app.Tx) error {
		return tx.PutBudget(&domain.Budget{ID: "01HZXBU1", CompanyID: "01HZXCO1", Code: "ORC-1"})
	})
	if err != nil {
		t.Fatalf("PutBudget on an upgraded file: %v", err)
	}
	s.Close()
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keySchemaVersion); string(v) != "3" {
			t.Errorf("schema version = %q after adding buckets, want 3", v)
		}
		return nil
	})
}

// TestOnDiskEncoding pins the record encoding and the key formats that
// docs/storage.md describes.
func TestOnDiskEncoding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	r := &domain.Resource{
		ID: "01HZXRE1", CompanyID: "01HZXCO1", Code: "R-1", Description: "Areia", Unit: "M3", Type: domain.TypeMaterial,
		Locals:    map[string]domain.PriceLine{"MG": {PND: domain.Dec("0.0000001"), PD: domain.Dec("12345678.1234"), PNDI: domain.Dec("1.50")}},
		CreatedAt: time.Date(2024, 1, 31, 21, 0, 0, 1, time.FixedZone("BRT", -3*60*60)),
	}
	c := &domain.Composition{ID: "01HZXCP1", CompanyID: "01HZXCO1", Code: "C-1", State: "SP"}
	ed := &domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026"}
	bu := &domain.Budget{ID: "01HZXBU1", CompanyID: "01HZXCO1", Code: "ORC-1", BDI: domain.Dec("25.00"),
		BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate, NodeSeq: 2,
		Items: []domain.BudgetNode{{ID: "n1", Kind: domain.NodeStage, Description: "Etapa", Items: []domain.BudgetNode{
			{ID: "n2", Kind: domain.NodeComposition, Bank: "SINAPI", Code: "89306", Quantity: domain.Dec("120.50")},
		}}}}
	err := s.Update(context.Background(), func(tx app.Tx) error {
		if err := tx.PutResource(r); err != nil {
			return err
		}
		if err := tx.PutBudget(bu); err != nil {
			return err
		}
		if err := tx.PutComposition(c); err != nil {
			return err
		}
		if err := tx.PutEdition(ed); err != nil {
			return err
		}
		return tx.PutBankResource(ed.Key(), &domain.BankResource{Code: "00001"})
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		var rec map[string]any
		if err := json.Unmarshal(tx.Bucket(bucketResources).Get([]byte("01HZXRE1")), &rec); err != nil {
			t.Fatalf("resource record: %v", err)
		}
		mg := rec["locals"].(map[string]any)["MG"].(map[string]any)
		for field, want := range map[string]string{"pnd": "0.0000001", "pd": "12345678.1234", "pndi": "1.50", "pdi": "0"} {
			if mg[field] != want {
				t.Errorf("locals.MG.%s = %#v, want the string %q", field, mg[field], want)
			}
		}
		if rec["created_at"] != "2024-02-01T00:00:00.000000001Z" {
			t.Errorf("created_at = %#v, want RFC 3339 in UTC with nanoseconds", rec["created_at"])
		}
		keys := []struct {
			bucket []byte
			key    string
			value  string
		}{
			{bucketResourceByCode, "01HZXCO1\x00R-1", "01HZXRE1"},
			{bucketResourcesByCompany, "01HZXCO1\x0001HZXRE1",
				// version 1; texts R-1, r-1, Areia, areia, "", "", M3, "", "", ""; type 4 (varint 8);
				// no flags; priced in MG; created 1706745600 s + 1 ns; updated 0, 0; no uses.
				"\x01\x03R-1\x03r-1\x05Areia\x05areia\x00\x00\x02M3\x00\x00\x00\x08\x00\x01\x02MG\x80\xfc\xd6\xdb\x0c\x02\x00\x00\x00"},
			{bucketResourcesOrder, "01HZXCO1\x00code\x00r-\x30\x021\x00\x01R-1\x00\x0101HZXRE1", "01HZXRE1"},
			{bucketListCounts, "01HZXCO1\x00resources", "\x00\x00\x00\x00\x00\x00\x00\x01"},
			{bucketCompositionByCode, "01HZXCO1\x00C-1\x00SP", "01HZXCP1"},
			{bucketCompositionsByCompany, "01HZXCO1\x0001HZXCP1", "*"},
			{bucketEditions, "SINAPI/MG/2026-08/", "*"},
			{bucketBankResources, "SINAPI/MG/2026-08/\x0000001", "*"},
			{bucketBudgets, "01HZXBU1", `{"id":"01HZXBU1","company_id":"01HZXCO1","user_id":"","department_id":"","code":"ORC-1",` +
				`"description":"","client":"","state":"","banks":null,"desonerado":false,"bdi":"25.00","bdi_mode":"unit_price",` +
				`"rounding":"truncate","node_seq":2,"items":[{"id":"n1","kind":"stage","description":"Etapa","items":[` +
				`{"id":"n2","kind":"composition","bank":"SINAPI","code":"89306","quantity":"120.50"}]}],"created_at":"","updated_at":""}`},
			{bucketBudgetByCode, "01HZXCO1\x00ORC-1", "01HZXBU1"},
			{bucketBudgetsByCompany, "01HZXCO1\x0001HZXBU1", "*"},
		}
		for _, k := range keys {
			v := tx.Bucket(k.bucket).Get([]byte(k.key))
			if v == nil {
				t.Errorf("bucket %s has no key %q", k.bucket, k.key)
			} else if k.value != "*" && string(v) != k.value {
				t.Errorf("bucket %s key %q = %q, want %q", k.bucket, k.key, v, k.value)
			}
		}
		return nil
	})
}

// TestCorruptRecord checks that a record that does not decode is reported
// as an error, not returned half-filled.
func TestCorruptRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	open(t, path).Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBankResources).Put([]byte("E\x00bad"), []byte(`{"code":"bad","prices":{"pnd":"1,5"}}`))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	err = s.View(context.Background(), func(tx app.Tx) error {
		_, err := tx.BankResource("E", "bad")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "corrupt") || domain.ErrorCode(err) != domain.EINTERNAL {
		t.Fatalf("reading a corrupt record = %v, want an internal corrupt-record error", err)
	}
}

func setSchemaVersion(t *testing.T, path, version string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte(version))
	}); err != nil {
		t.Fatal(err)
	}
}
