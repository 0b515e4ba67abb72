package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

var (
	structMG = domain.EditionKey("SINAPI", "MG", "08/2026", "")
	structSP = domain.EditionKey("SINAPI", "SP", "08/2026", "")
)

func structureOf(coefs ...string) []domain.StructureItem {
	out := []domain.StructureItem{}
	for i, c := range coefs {
		out = append(out, domain.StructureItem{Kind: domain.KindResource, Code: "0000" + strconv.Itoa(i+1), Coefficient: domain.Dec(c)})
	}
	return out
}

// structureState is what the structures and structure_refs buckets hold:
// each structure's items (as JSON) and its reference count, by hex key.
type structureState map[string]struct {
	Items string
	Refs  uint64
}

func readStructures(t *testing.T, s *Store) structureState {
	t.Helper()
	got := structureState{}
	err := s.db.View(func(btx *bolt.Tx) error {
		refs := btx.Bucket(bucketStructureRefs)
		if err := btx.Bucket(bucketStructures).ForEach(func(k, v []byte) error {
			e := got[hex.EncodeToString(k)]
			e.Items = string(v)
			if r := refs.Get(k); len(r) == 8 {
				e.Refs = binary.BigEndian.Uint64(r)
			}
			got[hex.EncodeToString(k)] = e
			return nil
		}); err != nil {
			return err
		}
		return refs.ForEach(func(k, _ []byte) error {
			if _, ok := got[hex.EncodeToString(k)]; !ok {
				t.Errorf("structure_refs has %x, which structures lacks", k)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func structureKey(t *testing.T, items []domain.StructureItem) string {
	t.Helper()
	k, err := func() (k []byte, err error) {
		// the key putStructure computes, in a throw-away transaction
		path := filepath.Join(t.TempDir(), "k.db")
		s := open(t, path)
		defer s.Close()
		err = s.db.Update(func(btx *bolt.Tx) error {
			w := newStructureWrites(btx)
			if k, err = putStructure(w, toStructureItemRecords(items)); err != nil {
				return err
			}
			return w.flush()
		})
		return k, err
	}()
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(k)
}

func bankComposition(t *testing.T, s *Store, edition, code string) *domain.BankComposition {
	t.Helper()
	var c *domain.BankComposition
	if err := s.View(context.Background(), func(tx app.Tx) error {
		var err error
		c, err = tx.BankComposition(edition, code)
		return err
	}); err != nil {
		t.Fatalf("BankComposition(%s, %s): %v", edition, code, err)
	}
	return c
}

func put(t *testing.T, s *Store, fn func(tx app.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// TestStructuresAreShared: the structure of a composition that two
// editions publish with the same items is stored once and counted twice;
// deleting one edition keeps it for the other; replacing or deleting the
// last record that uses a structure deletes it; nil and empty items stay
// apart.
func TestStructuresAreShared(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	a, b := structureOf("1.5", "0.25"), structureOf("2")
	ka, kb, kEmpty := structureKey(t, a), structureKey(t, b), structureKey(t, []domain.StructureItem{})
	aJSON := `[{"kind":"resource","code":"00001","coefficient":"1.5"},{"kind":"resource","code":"00002","coefficient":"0.25"}]`
	bJSON := `[{"kind":"resource","code":"00001","coefficient":"2"}]`
	comp := func(code, cost string, items []domain.StructureItem) *domain.BankComposition {
		return &domain.BankComposition{Code: code, Description: "Composição " + code, Unit: "M2",
			Cost: domain.UnitPrice{PND: domain.Dec(cost), PD: domain.Dec(cost)}, Items: items}
	}
	put(t, s, func(tx app.Tx) error {
		for _, e := range []struct {
			key  string
			cost string
		}{{structMG, "10.00"}, {structSP, "12.00"}} {
			for _, c := range []*domain.BankComposition{comp("1", e.cost, a), comp("2", e.cost, b), comp("3", e.cost, nil), comp("4", e.cost, []domain.StructureItem{})} {
				if err := tx.PutBankComposition(e.key, c); err != nil {
					return err
				}
			}
		}
		return nil
	})
	want := structureState{ka: {aJSON, 2}, kb: {bJSON, 2}, kEmpty: {"[]", 2}}
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Fatalf("structures after two editions (-want +got):\n%s", d)
	}
	// The record holds the key, not the items.
	_ = s.db.View(func(btx *bolt.Tx) error {
		var rec map[string]any
		if err := json.Unmarshal(btx.Bucket(bucketBankCompositions).Get(key(structSP, "1")), &rec); err != nil {
			t.Fatal(err)
		}
		if _, ok := rec["items"]; ok {
			t.Errorf("bank composition record has inline items: %v", rec)
		}
		raw, _ := hex.DecodeString(ka)
		if want, _ := json.Marshal(raw); rec["structure"] != string(want[1:len(want)-1]) {
			t.Errorf("record structure = %v, want %s (base64 of %s)", rec["structure"], want, ka)
		}
		return nil
	})

	// Every state reads its record with the shared items.
	for _, ed := range []string{structMG, structSP} {
		for code, items := range map[string][]domain.StructureItem{"1": a, "2": b, "3": nil, "4": {}} {
			got := bankComposition(t, s, ed, code)
			if d := cmp.Diff(items, got.Items, cmp.Comparer(func(x, y decimal.Decimal) bool { return x.String() == y.String() })); d != "" {
				t.Errorf("%s %s items (-want +got):\n%s", ed, code, d)
			}
			if (items == nil) != (got.Items == nil) {
				t.Errorf("%s %s items nil = %v, want %v", ed, code, got.Items == nil, items == nil)
			}
		}
	}

	// Deleting MG keeps every structure SP uses, counted once.
	put(t, s, func(tx app.Tx) error { return tx.DeleteBankRecords(structMG) })
	want = structureState{ka: {aJSON, 1}, kb: {bJSON, 1}, kEmpty: {"[]", 1}}
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Fatalf("structures after deleting MG (-want +got):\n%s", d)
	}
	if got := bankComposition(t, s, structSP, "1"); len(got.Items) != 2 {
		t.Errorf("SP 1 after deleting MG has items %v", got.Items)
	}

	// Replacing SP 1 with b's items drops a, and SP 2 with the same items
	// keeps b (counted twice, then once after the put of the same record).
	put(t, s, func(tx app.Tx) error {
		if err := tx.PutBankComposition(structSP, comp("1", "13.00", b)); err != nil {
			return err
		}
		return tx.PutBankComposition(structSP, comp("2", "13.00", b))
	})
	want = structureState{kb: {bJSON, 2}, kEmpty: {"[]", 1}}
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Fatalf("structures after replacing SP 1 and 2 (-want +got):\n%s", d)
	}

	// A failed transaction changes no count.
	_ = s.Update(context.Background(), func(tx app.Tx) error {
		_ = tx.DeleteBankRecords(structSP)
		return domain.Errorf(domain.EINVALID, "abandoned")
	})
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Fatalf("structures after a rolled back delete (-want +got):\n%s", d)
	}

	// Deleting the last edition leaves no structure behind.
	put(t, s, func(tx app.Tx) error { return tx.DeleteBankRecords(structSP) })
	if d := cmp.Diff(structureState{}, readStructures(t, s)); d != "" {
		t.Fatalf("structures after deleting every edition (-want +got):\n%s", d)
	}
}

// TestUpgradeSharesStructures: a version-2 file, whose bank composition
// records hold their items inline, gets them moved to the shared structures
// when it is opened; every record reads as before.
func TestUpgradeSharesStructures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	open(t, path).Close()
	a := structureOf("1.50", "3")
	inline := func(code string, items []domain.StructureItem) []byte {
		r := toBankCompositionRecord(&domain.BankComposition{Code: code, Unit: "M2",
			Cost: domain.UnitPrice{PND: domain.Dec("1.00"), PD: domain.Dec("2.00")}})
		r.Items = toStructureItemRecords(items)
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(btx *bolt.Tx) error {
		b := btx.Bucket(bucketBankCompositions)
		for k, v := range map[string][]byte{
			string(key(structMG, "1")): inline("1", a),
			string(key(structSP, "1")): inline("1", a),
			string(key(structSP, "2")): inline("2", nil),
		} {
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
		for _, name := range [][]byte{bucketStructures, bucketStructureRefs} {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return btx.Bucket(bucketMeta).Put(keySchemaVersion, []byte("2"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s := open(t, path)
	defer s.Close()
	ka := structureKey(t, a)
	want := structureState{ka: {`[{"kind":"resource","code":"00001","coefficient":"1.50"},{"kind":"resource","code":"00002","coefficient":"3"}]`, 2}}
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Errorf("structures after the upgrade (-want +got):\n%s", d)
	}
	for _, ed := range []string{structMG, structSP} {
		got := bankComposition(t, s, ed, "1")
		if len(got.Items) != 2 || got.Items[0].Coefficient.String() != "1.5" || got.Items[1].Code != "00002" || got.Cost.PD.String() != "2" {
			t.Errorf("%s 1 after the upgrade = %+v", ed, got)
		}
	}
	if got := bankComposition(t, s, structSP, "2"); got.Items != nil {
		t.Errorf("SP 2 (no structure) after the upgrade has items %v", got.Items)
	}
	_ = s.db.View(func(btx *bolt.Tx) error {
		if v := btx.Bucket(bucketMeta).Get(keySchemaVersion); string(v) != strconv.Itoa(SchemaVersion) {
			t.Errorf("schema version after the upgrade = %q, want %d", v, SchemaVersion)
		}
		var rec map[string]any
		_ = json.Unmarshal(btx.Bucket(bucketBankCompositions).Get(key(structMG, "1")), &rec)
		if _, ok := rec["items"]; ok || rec["structure"] == nil {
			t.Errorf("record after the upgrade = %v, want a structure key and no inline items", rec)
		}
		return nil
	})
	// A re-import of MG after the upgrade counts right.
	put(t, s, func(tx app.Tx) error { return tx.DeleteBankRecords(structMG) })
	want[ka] = struct {
		Items string
		Refs  uint64
	}{want[ka].Items, 1}
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Errorf("structures after deleting MG (-want +got):\n%s", d)
	}
}

// TestMissingStructureIsCorrupt: a record whose structure entry is gone is
// an internal corrupt-record error on every read path, never a composition
// without items.
func TestMissingStructureIsCorrupt(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	put(t, s, func(tx app.Tx) error {
		return tx.PutBankComposition(structMG, &domain.BankComposition{Code: "1", Items: structureOf("1")})
	})
	if err := s.db.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketStructures).Delete(mustHex(t, structureKey(t, structureOf("1"))))
	}); err != nil {
		t.Fatal(err)
	}
	reads := map[string]func(tx app.Tx) error{
		"BankComposition":  func(tx app.Tx) error { _, err := tx.BankComposition(structMG, "1"); return err },
		"BankCompositions": func(tx app.Tx) error { _, err := tx.BankCompositions(structMG); return err },
		"Walk":             nil,
	}
	for name, read := range reads {
		var err error
		if read == nil {
			err = s.Walk(context.Background(), Visitor{BankComposition: func(string, *domain.BankComposition) error { return nil }})
		} else {
			err = s.View(context.Background(), read)
		}
		if err == nil || !strings.Contains(err.Error(), "corrupt") || !strings.Contains(err.Error(), "missing") || domain.ErrorCode(err) != domain.EINTERNAL {
			t.Errorf("%s with a missing structure = %v, want an internal corrupt-record error", name, err)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStructuresWrittenAtTheEnd: the structures an Update puts are written
// when its function returns, in key order; inside the function they read
// as if written, and put then released in the same Update they leave
// nothing.
func TestStructuresWrittenAtTheEnd(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	a, b := structureOf("1.5", "0.25"), structureOf("7.5", "1")
	ka := structureKey(t, a)
	comp := func(code string, items []domain.StructureItem) *domain.BankComposition {
		return &domain.BankComposition{Code: code, Description: "Composição " + code, Unit: "M2",
			Cost: domain.UnitPrice{PND: domain.Dec("1"), PD: domain.Dec("1")}, Items: items}
	}
	put(t, s, func(tx app.Tx) error {
		for i := 0; i < 200; i++ { // many structures, keys in no order
			if err := tx.PutBankComposition(structSP, comp(strconv.Itoa(1000+i), structureOf(strconv.Itoa(i+1)))); err != nil {
				return err
			}
		}
		if err := tx.PutBankComposition(structMG, comp("1", a)); err != nil {
			return err
		}
		got, err := tx.BankComposition(structMG, "1")
		if err != nil {
			return err
		}
		if len(got.Items) != 2 || got.Items[1].Coefficient.String() != "0.25" {
			t.Errorf("read in the same Update: items %v", got.Items)
		}
		// b put and deleted in the same Update: never written.
		if err := tx.PutBankComposition(structSP, comp("2", b)); err != nil {
			return err
		}
		return tx.DeleteBankRecords(structSP)
	})
	want := structureState{ka: {`[{"kind":"resource","code":"00001","coefficient":"1.5"},{"kind":"resource","code":"00002","coefficient":"0.25"}]`, 1}}
	if d := cmp.Diff(want, readStructures(t, s)); d != "" {
		t.Fatalf("structures (-want +got):\n%s", d)
	}
	if got := bankComposition(t, s, structMG, "1"); len(got.Items) != 2 {
		t.Errorf("MG 1 has items %v", got.Items)
	}

	// Two Updates committed together (group commit), one of which fails:
	// the other's structures are there, the failed one's are not.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Update(context.Background(), func(tx app.Tx) error {
				if err := tx.PutBankComposition(structSP, comp(strconv.Itoa(i), structureOf("9", strconv.Itoa(i+1)))); err != nil {
					return err
				}
				if i%2 == 1 {
					return domain.Errorf(domain.EINVALID, "abandoned")
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if (err != nil) != (i%2 == 1) {
			t.Errorf("update %d: %v", i, err)
		}
	}
	got := readStructures(t, s)
	if len(got) != 1+4 {
		t.Errorf("%d structures, want 5: %v", len(got), got)
	}
	for i := range errs {
		k := structureKey(t, structureOf("9", strconv.Itoa(i+1)))
		if e, ok := got[k]; ok != (i%2 == 0) || ok && e.Refs != 1 {
			t.Errorf("structure of update %d: %+v, there %v", i, e, ok)
		}
	}
}
