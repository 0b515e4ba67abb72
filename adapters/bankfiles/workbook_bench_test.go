package bankfiles_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
)

// BenchmarkSinapiWorkbookRead reads and builds the editions of a generated full-size national workbook
// (27 states, 5,000 insumos, 9,000 compositions, 99,000 Analítico rows);
// COSTDB_WORKBOOK names an existing one instead. The import's own figure,
// storage included, comes from bench/workbook.sh (docs/performance.md).
func BenchmarkSinapiWorkbookRead(b *testing.B) {
	path := os.Getenv("COSTDB_WORKBOOK")
	if path == "" {
		path = filepath.Join(b.TempDir(), "SINAPI_Referência_2026_08.xlsx")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriter(f)
		if err := workbooktest.Write(w, workbooktest.Synthetic(5000, 9000, 10)); err != nil {
			b.Fatal(err)
		}
		w.Flush()
		f.Close()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		wf, err := bankfiles.OpenSinapiWorkbook(path)
		if err != nil {
			b.Fatal(err)
		}
		wb, err := wf.Read(context.Background(), bankfiles.WorkbookOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range wb.States {
			wb.Edition(i) // built and let go, as the import does
		}
		wf.Close()
	}
}
