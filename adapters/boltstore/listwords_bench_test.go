package boltstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// BenchmarkPutResources writes resources of one company in transactions of
// 2,000 (as bench/lists does), the list indexes with them: the cost the
// word index adds to a company's writes. One op is one resource.
func BenchmarkPutResources(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "costdb.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	co := &domain.Company{ID: "01HZXCO1", Name: "Construtora"}
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.PutCompany(co) }); err != nil {
		b.Fatal(err)
	}
	words := []string{"CIMENTO", "AREIA", "BLOCO", "TIJOLO", "TUBO", "CABO", "TINTA", "PORTA", "JANELA", "TELHA", "PISO", "VIGA", "LAJE"}
	b.ReportAllocs()
	b.ResetTimer()
	const batch = 2000
	for lo := 0; lo < b.N; lo += batch {
		if err := s.Update(ctx, func(tx app.Tx) error {
			for i := lo; i < min(lo+batch, b.N); i++ {
				r := &domain.Resource{ID: fmt.Sprintf("01HZXRE%09d", i), CompanyID: co.ID, Code: fmt.Sprintf("R-%d", i),
					Description: fmt.Sprintf("%s %s %d", words[i%len(words)], words[(i/9)%len(words)], i%97),
					Type:        domain.TypeMaterial, Unit: "UN", CreatedAt: time.Unix(int64(i), 0).UTC()}
				if err := tx.PutResource(r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
