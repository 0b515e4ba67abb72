package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/internal/recordcache"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	bolt "go.etcd.io/bbolt"
)

func cachedResource(i int) *domain.Resource {
	return &domain.Resource{
		ID: fmt.Sprintf("r%06d", i), CompanyID: "c1", UserID: "u1", DepartmentID: "d1",
		Code: fmt.Sprintf("R-%d", i), Description: fmt.Sprintf("ALVENARIA DE BLOCO CERÂMICO %d", i), Type: domain.TypeMaterial, Unit: "UN", Status: true,
		Locals: map[string]domain.PriceLine{
			"MG": {PND: decimal.New(int64(100+i), -2), PD: decimal.New(int64(95+i), -2)},
			"SP": {PND: decimal.New(int64(200+i), -2), PD: decimal.New(int64(195+i), -2)},
		},
		CreatedAt: time.Date(2026, 8, 1, 0, 0, 0, i, time.UTC),
	}
}

func putResources(t *testing.T, s *Store, rs ...*domain.Resource) {
	t.Helper()
	if err := s.Update(context.Background(), func(tx app.Tx) error {
		for _, r := range rs {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func viewResource(t *testing.T, s *Store, id string) *domain.Resource {
	t.Helper()
	var r *domain.Resource
	if err := s.View(context.Background(), func(tx app.Tx) (err error) { r, err = tx.Resource(id); return err }); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestResourceCacheIsExact: a resource read in a read transaction is kept
// decoded by its bytes; every reader still gets its own copy (changing it,
// its prices or its tags changes no later read); a change of the record is
// seen by the next read; a write transaction does not use the cache.
func TestResourceCacheIsExact(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	r := cachedResource(1)
	r.Tags = []string{"a", "b"}
	putResources(t, s, r)
	if n := s.resources.Len(); n != 0 {
		t.Fatalf("a write filled the cache: %d", n)
	}
	stored := func() []byte {
		var raw []byte
		if err := s.db.View(func(btx *bolt.Tx) error {
			raw = bytes.Clone(btx.Bucket(bucketResources).Get([]byte(r.ID)))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return raw
	}
	kept := func(raw []byte) bool {
		_, err := recordcache.Decode(s.resources, r.ID, raw, func([]byte) (*domain.Resource, error) {
			return nil, errors.New("not kept")
		})
		return err == nil
	}

	a := viewResource(t, s, r.ID)
	if !kept(stored()) {
		t.Fatal("a read did not keep the decoded resource")
	}
	if diff := cmp.Diff(r, a); diff != "" {
		t.Fatalf("first read (-put +read):\n%s", diff)
	}
	a.Description, a.Tags[0] = "changed", "changed"
	a.Locals["MG"] = domain.PriceLine{PND: decimal.New(1, 0)}
	delete(a.Locals, "SP")
	if err := s.View(context.Background(), func(tx app.Tx) error {
		byID, err := tx.Resource(r.ID)
		if err != nil {
			return err
		}
		byCode, err := tx.ResourceByCode("c1", r.Code)
		if err != nil {
			return err
		}
		list, _, err := tx.Resources("c1", app.Query{Limit: 10})
		if err != nil {
			return err
		}
		if len(list) != 1 {
			t.Fatalf("list of %d", len(list))
		}
		for _, got := range []*domain.Resource{byID, byCode, list[0]} {
			if diff := cmp.Diff(r, got); diff != "" {
				t.Errorf("read after changing a copy (-put +read):\n%s", diff)
			}
		}
		if byID == byCode || &byID.Locals == &byCode.Locals || &byID.Tags[0] == &byCode.Tags[0] {
			t.Error("two reads share a resource")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	if err := s.Update(context.Background(), func(tx app.Tx) error {
		w, err := tx.Resource(r.ID)
		if err != nil {
			return err
		}
		w.Description = "CHANGED"
		w.Locals["MG"] = domain.PriceLine{PND: decimal.New(7, 0), PD: decimal.New(7, 0)}
		return tx.PutResource(w)
	}); err != nil {
		t.Fatal(err)
	}
	c := viewResource(t, s, r.ID)
	if c.Description != "CHANGED" || !c.Locals["MG"].PND.Equal(decimal.New(7, 0)) {
		t.Fatalf("read after the write: %+v", c)
	}
	if !kept(stored()) {
		t.Fatal("the changed resource was not kept")
	}
	if err := s.Update(context.Background(), func(tx app.Tx) error { return tx.DeleteResource(r.ID) }); err != nil {
		t.Fatal(err)
	}
	if err := s.View(context.Background(), func(tx app.Tx) error {
		_, err := tx.Resource(r.ID)
		if domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("deleted resource read: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestResourceCacheMemory: reading many more resources than the cache
// keeps leaves the heap grown by no more than resourceCacheHeapBound, the
// decoded resources of resourceCacheMax raw bytes (runtime/metrics, after
// a collection).
func TestResourceCacheMemory(t *testing.T) {
	const resourceCacheHeapBound = 6 * resourceCacheMax
	s := open(t, filepath.Join(t.TempDir(), "m.db"))
	const n = 40000
	// The records alone (no index: only reads by id follow).
	if err := s.db.Update(func(btx *bolt.Tx) error {
		b := btx.Bucket(bucketResources)
		for i := range n {
			data, err := json.Marshal(toResourceRecord(cachedResource(i)))
			if err != nil {
				return err
			}
			if err := b.Put(fmt.Appendf(nil, "r%06d", i), data); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(m)
		return m[0].Value.Uint64()
	}
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	before := heap()
	t0 := time.Now()
	if err := s.View(context.Background(), func(tx app.Tx) error {
		for i := range n {
			r, err := tx.Resource(fmt.Sprintf("r%06d", i))
			if err != nil {
				return err
			}
			if !strings.HasSuffix(r.Description, fmt.Sprint(" ", i)) {
				t.Fatalf("resource %d: %q", i, r.Description)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("read in %s", time.Since(t0))
	grown := int64(heap()) - int64(before)
	kept := s.resources
	t.Logf("heap grew by %.1f MB keeping %d resources of %.1f MB raw", float64(grown)/(1<<20), kept.Len(), float64(kept.Bytes())/(1<<20))
	if grown > resourceCacheHeapBound {
		t.Fatalf("heap grew by %d bytes, bound %d", grown, resourceCacheHeapBound)
	}
	if kept.Len() < 1000 {
		t.Fatalf("the cache kept %d resources", kept.Len())
	}
}
