// Command sinapiworkbook writes a generated full-size SINAPI national
// workbook (27 states, 5,000 insumos, 9,000 compositions, about 100,000
// Analítico rows by default) for the import benchmark, bench/workbook.sh.
// With -real DIR it writes instead the small workbook of the project's real
// data (workbooktest.Real; DIR holds the PE 10/2024 files), the one in
// adapters/bankfiles/testdata/sinapi-workbook-202608.
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
	cached := flag.Bool("cached", false, "composition code formulas also store the code as their value")
	real := flag.String("real", "", "write the workbook of the real MG and PE data instead; the directory of the PE 10/2024 files")
	flag.Parse()
	wb := workbooktest.Synthetic(*insumos, *compositions, *items)
	wb.CachedCodes = *cached
	if *real != "" {
		var err error
		if wb, _, err = workbooktest.Real(*real); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(f)
	if err := workbooktest.Write(w, wb); err != nil {
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
