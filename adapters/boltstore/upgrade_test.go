package boltstore

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestUpgradeBuildsListIndexes: a version-1 file (list entries without
// rows, no sort, uses or count buckets) gets its list indexes built from the
// records when it is opened, and lists answer queries from them.
func TestUpgradeBuildsListIndexes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	err := s.Update(context.Background(), func(tx app.Tx) error {
		for i, code := range []string{"R-10", "R-9", "A-1"} {
			r := &domain.Resource{ID: "01HZXRE" + string(rune('1'+i)), CompanyID: "01HZXCO1", Code: code, Description: "Água " + code, Unit: "KG", CreatedAt: at}
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		if err := tx.PutGroup(&domain.Group{ID: "01HZXGR1", CompanyID: "01HZXCO1", Description: "Fundações", CreatedAt: at}); err != nil {
			return err
		}
		c := &domain.Composition{ID: "01HZXCP1", CompanyID: "01HZXCO1", Code: "C-1", State: "MG", CreatedAt: at,
			Items: []domain.Item{{Bank: domain.BankMyBase, Code: "R-9", Kind: domain.KindResource, Quantity: domain.Dec("1")}}}
		if err := tx.PutComposition(c); err != nil {
			return err
		}
		return tx.PutBudget(&domain.Budget{ID: "01HZXBU1", CompanyID: "01HZXCO1", Code: "ORC-1", State: "MG", CreatedAt: at, UpdatedAt: at,
			Items: []domain.BudgetNode{{ID: "n1", Kind: domain.NodeResource, Bank: domain.BankMyBase, Code: "R-10", Quantity: domain.Dec("2")}}})
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Make it a version-1 file, as the code before the list indexes left it.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range listBuckets {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		for _, k := range listKinds {
			b := tx.Bucket(k.rows)
			var keys [][]byte
			_ = b.ForEach(func(k, _ []byte) error { keys = append(keys, append([]byte(nil), k...)); return nil })
			for _, key := range keys {
				if err := b.Put(key, []byte{}); err != nil {
					return err
				}
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte("1"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	type got struct {
		IDs   []string
		Total int
	}
	ids := func(n int, err error, get func(i int) string) got {
		if err != nil {
			t.Fatal(err)
		}
		out := got{Total: n}
		for i := 0; get(i) != ""; i++ {
			out.IDs = append(out.IDs, get(i))
		}
		return out
	}
	_ = s.View(context.Background(), func(tx app.Tx) error {
		at := func(xs []*domain.Resource) func(int) string {
			return func(i int) string {
				if i < len(xs) {
					return xs[i].ID
				}
				return ""
			}
		}
		rs, n, err := tx.Resources("01HZXCO1", app.Query{Sort: []app.Order{{Field: app.FieldCode}}})
		if d := cmp.Diff(got{[]string{"01HZXRE3", "01HZXRE2", "01HZXRE1"}, 3}, ids(n, err, at(rs))); d != "" {
			t.Errorf("resources by code after the upgrade (-want +got):\n%s", d)
		}
		rs, n, err = tx.Resources("01HZXCO1", app.Query{Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: "agua r-1"}}})
		if d := cmp.Diff(got{[]string{"01HZXRE1"}, 1}, ids(n, err, at(rs))); d != "" {
			t.Errorf("resources described agua r-1 after the upgrade (-want +got):\n%s", d)
		}
		cs, n, err := tx.Compositions("01HZXCO1", app.Query{Where: []app.Cond{{Op: app.Uses, Item: app.UsedItem{Kind: domain.KindResource, Code: "R-9"}}}})
		if err != nil || n != 1 || len(cs) != 1 || cs[0].ID != "01HZXCP1" {
			t.Errorf("compositions using R-9 after the upgrade = %v (total %d), %v", cs, n, err)
		}
		bs, n, err := tx.Budgets("01HZXCO1", app.Query{Where: []app.Cond{{Op: app.Uses, Item: app.UsedItem{Kind: domain.KindResource, Code: "R-10"}}}})
		if err != nil || n != 1 || len(bs) != 1 || bs[0].ID != "01HZXBU1" {
			t.Errorf("budgets using R-10 after the upgrade = %v (total %d), %v", bs, n, err)
		}
		gs, n, err := tx.Groups("01HZXCO1", app.Query{Sort: []app.Order{{Field: app.FieldDescription, Desc: true}}})
		if err != nil || n != 1 || len(gs) != 1 {
			t.Errorf("groups after the upgrade = %v (total %d), %v", gs, n, err)
		}
		return nil
	})
	s.Close()
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keySchemaVersion); string(v) != strconv.Itoa(SchemaVersion) {
			t.Errorf("schema version after the upgrade = %q, want %d", v, SchemaVersion)
		}
		return nil
	})
}
