package bankfiles_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
)

// benchmarkImport measures what costdb import does: read every file, then
// import them in one transaction into a fresh bbolt file.
func benchmarkImport(b *testing.B, bank bankfiles.Bank, state, month string, files []string) {
	b.ReportAllocs()
	dir := b.TempDir()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		st, err := boltstore.Open(filepath.Join(dir, fmt.Sprintf("%d.db", i)), boltstore.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := importFiles(ctx, app.New(st, nil, app.Config{}), bank, state, month, nil, files...); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

// BenchmarkImportSinapiPE imports the whole SINAPI PE 10/2024 set (4,811
// insumos, 7,737 compositions in each regime, 7 MB of CSV).
func BenchmarkImportSinapiPE(b *testing.B) {
	benchmarkImport(b, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles)
}

// BenchmarkImportSicroAL imports the six SICRO AL 01/2024 XLSX reports.
func BenchmarkImportSicroAL(b *testing.B) {
	benchmarkImport(b, bankfiles.OfficialSicro(), "AL", "01/2024", alFiles)
}
