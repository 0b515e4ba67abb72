// Command sinapiworkbook writes a generated full-size SINAPI national
// workbook (27 states, 5,000 insumos, 9,000 compositions, about 100,000
// Analítico rows by default) for the import benchmark, bench/workbook.sh.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
)

func main() {
	out := flag.String("out", "SINAPI_Referência_2026_08.xlsx", "file to write")
	insumos := flag.Int("insumos", 5000, "insumos")
	compositions := flag.Int("compositions", 9000, "compositions")
	items := flag.Int("items", 10, "items per composition (Analítico rows: compositions × (items + 1))")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(f)
	if err := workbooktest.Write(w, workbooktest.Synthetic(*insumos, *compositions, *items)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
