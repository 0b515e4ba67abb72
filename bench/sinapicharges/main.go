// Command sinapicharges writes Caixa's encargos sociais table of every
// state (workbooktest.SinapiCharges: the layout of Caixa's published PDFs,
// figures of that order) into a folder, named as a package names them, for
// the package import benchmark (bench/package-pg.sh).
//
//	go run ./bench/sinapicharges -dir PKG -month 08/2026
package main

import (
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"sort"
	"strings"

	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/domain"
)

func main() {
	dir := flag.String("dir", ".", "folder to write the tables into")
	month := flag.String("month", "08/2026", "month MM/YYYY of the tables")
	flag.Parse()
	mm, yyyy, ok := strings.Cut(*month, "/")
	if !ok {
		log.Fatalf("month %q is not MM/YYYY", *month)
	}
	ufs := make([]string, 0, len(domain.States))
	for uf := range domain.States {
		ufs = append(ufs, uf)
	}
	sort.Strings(ufs)
	for _, uf := range ufs {
		name := fmt.Sprintf("SINAPI_Encargos_Sociais_%s_%s%s.xlsx", uf, yyyy, mm)
		title := strings.ToUpper(domain.States[uf]) + " VIGÊNCIA A PARTIR DE " + *month
		if err := workbooktest.SinapiCharges(filepath.Join(*dir, name), title); err != nil {
			log.Fatal(err)
		}
	}
}
