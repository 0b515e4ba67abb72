package bankfiles

import (
	"io"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// SicroFiles are DNIT's "Relatório Sintético" reports of one SICRO edition
// (one state, one month), each converted cell by cell from its XLSX sheet to
// CSV (comma separated, title rows kept, numbers as the XLSX stores them).
// A pair of regime files must be given together or not at all; a nil report
// is skipped.
type SicroFiles struct {
	EquipmentND, EquipmentD io.Reader // Equipamentos sem / com desoneração
	LaborND, LaborD         io.Reader // Mão de Obra sem / com desoneração
	Materials               io.Reader // Materiais
	Compositions            io.Reader // Composições de Custos
}

// File names used in error messages.
const (
	sicroEquipmentND  = "equipamentos sem desoneração"
	sicroEquipmentD   = "equipamentos com desoneração"
	sicroLaborND      = "mão de obra sem desoneração"
	sicroLaborD       = "mão de obra com desoneração"
	sicroMaterials    = "materiais"
	sicroCompositions = "composições de custos"
)

// SICRO figures are kept to these places (see ReadSicro).
const (
	SicroPricePlaces = 4 // resource prices: DNIT publishes 4 places
	SicroCostPlaces  = 2 // composition unit costs: DNIT publishes 2 places
)

// unpriced is the cell text of a price DNIT does not publish.
const unpriced = "-"

// monthNames are the month names of the reports' title rows.
var monthNames = [...]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho",
	"julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// ReadSicro reads one SICRO edition. meta names the edition (Bank, State,
// Month, Region, Source); Regimes (both) and the counts are filled from the
// files. The title rows of each report must name meta's state and month, and
// the "com desoneração" reports must say so (and the "sem" ones must not), so
// that a report given in the wrong place is refused.
//
// Prices:
//   - equipment (unit "h"): PND = productive cost sem desoneração, PD =
//     productive cost com desoneração, PNDI / PDI = idle cost sem / com;
//   - labour: PND = cost sem, PD = cost com, PNDI = PND, PDI = PD;
//   - materials: the unit price in all four fields (DNIT publishes one);
//     a material whose price cell is "-" (not priced by DNIT) is left out, so
//     that a composition naming it shows it as missing rather than free;
//   - compositions: the unit cost as Cost.PND. The synthetic composition
//     report states no regime, and a report that names none is sem
//     desoneração (the same rule as the official importer), so Cost.PD stays
//     zero until a "com desoneração" report is imported. A cost cell "-" is
//     skipped like a material's.
//
// The CSV cells hold the XLSX binary floating-point values as text
// (17.764900000000001 for 17.7649): each is parsed exactly and rounded half
// up to the places DNIT publishes, SicroPricePlaces for resource prices and
// SicroCostPlaces for composition costs, which gives back the published
// figure (the float error is far below half a unit of the last place).
func ReadSicro(meta domain.Edition, f SicroFiles) (*Edition, error) {
	if err := checkMeta(meta); err != nil {
		return nil, err
	}
	out := &Edition{Edition: meta}
	out.Edition.Regimes = nil
	out.Edition.AddRegime(domain.NaoDesonerado)
	out.Edition.AddRegime(domain.Desonerado)
	seen := map[string]string{}
	add := func(file string, line int, r *domain.BankResource) error {
		if prev, ok := seen[r.Code]; ok {
			return badFile(file, line, "code %s is also in %s", r.Code, prev)
		}
		seen[r.Code] = file
		out.Resources = append(out.Resources, r)
		return nil
	}

	if err := readSicroPair(meta, f.EquipmentND, f.EquipmentD, sicroEquipmentND, sicroEquipmentD,
		[]string{"descrição", "custo produtivo", "custo improdutivo"},
		func(nd, d sicroRow) error {
			cp, err := sicroNumbers(sicroEquipmentND, sicroEquipmentD, nd, d, 2, "custo produtivo", SicroPricePlaces)
			if err != nil {
				return err
			}
			ci, err := sicroNumbers(sicroEquipmentND, sicroEquipmentD, nd, d, 3, "custo improdutivo", SicroPricePlaces)
			if err != nil {
				return err
			}
			return add(sicroEquipmentND, nd.line, &domain.BankResource{
				Code: nd.cells[0], Description: nd.cells[1], Unit: "h", Type: domain.TypeEquipment,
				Prices: domain.PriceLine{PND: cp[0], PD: cp[1], PNDI: ci[0], PDI: ci[1]},
			})
		}); err != nil {
		return nil, err
	}

	if err := readSicroPair(meta, f.LaborND, f.LaborD, sicroLaborND, sicroLaborD,
		[]string{"descrição", "unidade", "custo"},
		func(nd, d sicroRow) error {
			if !sameText(nd.cells[2], d.cells[2]) {
				return badFile(sicroLaborD, d.line, "code %s has another unit than in %s", nd.cells[0], sicroLaborND)
			}
			c, err := sicroNumbers(sicroLaborND, sicroLaborD, nd, d, 3, "custo", SicroPricePlaces)
			if err != nil {
				return err
			}
			return add(sicroLaborND, nd.line, &domain.BankResource{
				Code: nd.cells[0], Description: nd.cells[1], Unit: nd.cells[2], Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: c[0], PD: c[1], PNDI: c[0], PDI: c[1]},
			})
		}); err != nil {
		return nil, err
	}

	if f.Materials != nil {
		t, err := readSicroTable(sicroMaterials, f.Materials, meta, []string{"descrição", "unidade", "preço unitário"})
		if err != nil {
			return nil, err
		}
		if err := t.checkRegime(false); err != nil {
			return nil, err
		}
		for _, row := range t.rows {
			if row.cells[3] == unpriced {
				continue
			}
			p, err := sicroNumber(sicroMaterials, row.line, "preço unitário", row.cells[3], SicroPricePlaces)
			if err != nil {
				return nil, err
			}
			if err := add(sicroMaterials, row.line, &domain.BankResource{
				Code: row.cells[0], Description: row.cells[1], Unit: row.cells[2], Type: domain.TypeMaterial,
				Prices: domain.PriceLine{PND: p, PD: p, PNDI: p, PDI: p},
			}); err != nil {
				return nil, err
			}
		}
	}

	if f.Compositions != nil {
		t, err := readSicroTable(sicroCompositions, f.Compositions, meta, []string{"descrição", "unidade", "custo unitário"})
		if err != nil {
			return nil, err
		}
		if err := t.checkRegime(false); err != nil {
			return nil, err
		}
		codes := map[string]bool{}
		for _, row := range t.rows {
			if row.cells[3] == unpriced {
				continue
			}
			if codes[row.cells[0]] {
				return nil, badFile(sicroCompositions, row.line, "code %s appears twice", row.cells[0])
			}
			codes[row.cells[0]] = true
			c, err := sicroNumber(sicroCompositions, row.line, "custo unitário", row.cells[3], SicroCostPlaces)
			if err != nil {
				return nil, err
			}
			// The report names no regime: its cost is the não desonerado
			// one, and the composition has no desonerado cost.
			out.Compositions = append(out.Compositions, &domain.BankComposition{
				Code: row.cells[0], Description: row.cells[1], Unit: row.cells[2],
				Cost: domain.UnitPrice{PND: c}, Regimes: []domain.Regime{domain.NaoDesonerado},
			})
		}
	}

	out.Edition.Resources = len(out.Resources)
	out.Edition.Compositions = len(out.Compositions)
	out.Edition.Structures = 0
	return out, nil
}

// sicroNumber parses one figure exactly and rounds it half up to places.
func sicroNumber(file string, line int, field, s string, places int32) (decimal.Decimal, error) {
	d, err := parseDecimal(file, line, field, s)
	if err != nil {
		return d, err
	}
	return domain.RoundHalfUp(d, places), nil
}

// sicroNumbers parses cell i of a code's rows in both regime reports.
func sicroNumbers(fileND, fileD string, nd, d sicroRow, i int, field string, places int32) ([2]decimal.Decimal, error) {
	var out [2]decimal.Decimal
	var err error
	if out[domain.NaoDesonerado], err = sicroNumber(fileND, nd.line, field, nd.cells[i], places); err != nil {
		return out, err
	}
	if out[domain.Desonerado], err = sicroNumber(fileD, d.line, field, d.cells[i], places); err != nil {
		return out, err
	}
	return out, nil
}

// readSicroPair reads the two regime reports of one kind of resource and
// calls row, in the order of the não desonerado report, with the rows of
// both reports for each code. Both reports must list the
// same codes with the same description.
func readSicroPair(meta domain.Edition, rnd, rd io.Reader, fileND, fileD string, cols []string,
	row func(nd, d sicroRow) error) error {
	if rnd == nil && rd == nil {
		return nil
	}
	if rnd == nil || rd == nil {
		return badFile(fileND, 0, "the reports sem and com desoneração must be given together")
	}
	tnd, err := readSicroTable(fileND, rnd, meta, cols)
	if err != nil {
		return err
	}
	if err := tnd.checkRegime(false); err != nil {
		return err
	}
	td, err := readSicroTable(fileD, rd, meta, cols)
	if err != nil {
		return err
	}
	if err := td.checkRegime(true); err != nil {
		return err
	}
	byCode := make(map[string]sicroRow, len(td.rows))
	for _, r := range td.rows {
		if _, dup := byCode[r.cells[0]]; dup {
			return badFile(fileD, r.line, "code %s appears twice", r.cells[0])
		}
		byCode[r.cells[0]] = r
	}
	done := make(map[string]bool, len(tnd.rows))
	for _, r := range tnd.rows {
		code := r.cells[0]
		if done[code] {
			return badFile(fileND, r.line, "code %s appears twice", code)
		}
		done[code] = true
		d, ok := byCode[code]
		if !ok {
			return badFile(fileD, 0, "code %s (%s line %d) is missing", code, fileND, r.line)
		}
		if !sameText(r.cells[1], d.cells[1]) {
			return badFile(fileD, d.line, "code %s has another description than in %s", code, fileND)
		}
		if err := row(r, d); err != nil {
			return err
		}
	}
	for _, r := range td.rows {
		if !done[r.cells[0]] {
			return badFile(fileND, 0, "code %s (%s line %d) is missing", r.cells[0], fileD, r.line)
		}
	}
	return nil
}

// sicroTable is one report: its title rows and its data rows cut down to
// the code and the wanted columns.
type sicroTable struct {
	file  string
	title string // the title rows, lower case, joined by spaces
	rows  []sicroRow
}

// sicroRow holds the code and then the wanted cells, trimmed.
type sicroRow struct {
	line  int
	cells []string
}

// readSicroTable reads a report: title rows, then the header row (first
// cell "Código"), then one row per code. cols are the wanted columns, found
// by the start of their header cell, case-insensitively (headers carry units
// and line breaks: "Custo Produtivo (R$/h)").
func readSicroTable(file string, r io.Reader, meta domain.Edition, cols []string) (*sicroTable, error) {
	recs, err := readCSV(file, r)
	if err != nil {
		return nil, err
	}
	h := -1
	for i, rec := range recs {
		if len(rec.fields) > 0 && strings.EqualFold(strings.TrimSpace(rec.fields[0]), "código") {
			h = i
			break
		}
	}
	if h < 0 {
		return nil, badFile(file, 0, `no header row (first cell "Código")`)
	}
	t := &sicroTable{file: file}
	var title []string
	for _, rec := range recs[:h] {
		for _, c := range rec.fields {
			if c = strings.TrimSpace(c); c != "" {
				title = append(title, strings.ToLower(c))
			}
		}
	}
	t.title = strings.Join(title, " ")
	state := strings.ToLower(domain.States[meta.State])
	month := monthNames[(int(meta.Month[0]-'0')*10+int(meta.Month[1]-'0'))-1] + "/" + meta.Month[3:]
	if !strings.Contains(t.title, state) || !strings.Contains(t.title, month) {
		return nil, badFile(file, 0, "the title rows do not name %s and %s", domain.States[meta.State], month)
	}
	idx := make([]int, len(cols))
	header := recs[h].fields
	for j, want := range cols {
		idx[j] = -1
		for i, cell := range header {
			name := strings.ToLower(strings.Join(strings.Fields(cell), " "))
			if strings.HasPrefix(name, want) && (len(name) == len(want) || name[len(want)] == ' ') {
				idx[j] = i
				break
			}
		}
		if idx[j] < 0 {
			return nil, badFile(file, recs[h].line, "no column %q in the header", want)
		}
	}
	for _, rec := range recs[h+1:] {
		if blank(rec.fields) {
			continue
		}
		cells := make([]string, 1+len(cols))
		cells[0] = strings.TrimSpace(rec.fields[0])
		if cells[0] == "" {
			return nil, badFile(file, rec.line, "code is empty")
		}
		for j, i := range idx {
			if i < len(rec.fields) {
				cells[1+j] = strings.TrimSpace(rec.fields[i])
			}
		}
		t.rows = append(t.rows, sicroRow{line: rec.line, cells: cells})
	}
	return t, nil
}

// checkRegime checks that the title rows say "com desoneração" when, and
// only when, the report is expected to be the desonerado one.
func (t *sicroTable) checkRegime(desonerado bool) error {
	com := strings.Contains(t.title, "com desoneração")
	switch {
	case desonerado && !com:
		return badFile(t.file, 0, `the title rows do not say "com desoneração"`)
	case !desonerado && com:
		return badFile(t.file, 0, `the title rows say "com desoneração"`)
	}
	return nil
}
