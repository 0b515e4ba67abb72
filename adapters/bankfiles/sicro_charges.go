package bankfiles

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// This file reads DNIT's "Relatório Sintético de Encargos Sociais" (one per
// state, month and regime, in SICRO's package): the social charges DNIT
// prices each labour code with. Layout, as published (AL 01/2024): title
// rows "CGCIT | SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO | DNIT",
// "Alagoas - Janeiro/2024" and "Sem desoneração" or "Com desoneração"; the
// header "Código | Descrição | Unid. | Encargos Sociais (%) | … |
// Encargos Trabalhistas (%) | … | Verbas Rescisórias (%) | … |
// Reincidências (%) | … | Total (%)", a row of item codes under it (A1 …
// A9, B1 … B10, C1 … C5, D1, D2), one row per labour code (P9801 Ajudante
// h …), then a legend of the item codes (rows without a code). The
// percentages are stored as fractions formatted as percent (0.2 shown
// "20%"); a CSV of the cells may hold them as "20%".

// ChargesTable is a labour charges (encargos sociais) table of a bank for
// one state, month and regime (domain.ChargesTable).
type ChargesTable = domain.ChargesTable

// ChargesRow is the charges of one labour code (domain.ChargesRow).
type ChargesRow = domain.ChargesRow

// sicroChargesHeader recognises the encargos table's header.
type sicroChargesHeader struct{}

func (sicroChargesHeader) Name() string { return "SICRO encargos sociais" }

func (sicroChargesHeader) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("ENCARGOS SOCIAIS") >= 0 && h.Prefix("TOTAL") >= 0
}

func (sicroChargesHeader) Read(*File, *Builder) error {
	return errors.New("bankfiles: the encargos table is read by ReadSicroCharges")
}

// ReadSicroCharges reads DNIT's encargos sociais table from r (XLSX or a CSV
// of its cells; name is used in messages). The state, month and regime
// come from the title rows; state and month, when not "", must agree with
// them (an EBADREQUEST error naming both otherwise). A table whose titles
// state no regime is refused: sem and com desoneração differ in group A.
func ReadSicroCharges(ctx context.Context, name string, r io.ReaderAt, size int64, state, month string) (*ChargesTable, error) {
	f, _, err := newFile(ctx, name, r, size, []Format{sicroChargesHeader{}}, Limits{}.withDefaults())
	if errors.Is(err, errNoHeader) {
		return nil, badFile(name, 0, "not DNIT's encargos sociais table: no header with Código, Encargos Sociais (%%) and Total (%%) in the first %d rows", maxTitleRows)
	}
	if err != nil {
		return nil, err
	}
	defer f.src.close()
	title := f.TitleText()
	out := &ChargesTable{Bank: "SICRO3", State: titleState(title)}
	if m := sicroMonthPattern.FindStringSubmatch(title); m != nil {
		out.Month = sicroMonths[m[1]] + "/" + m[2]
	}
	switch {
	case out.State == "" || out.Month == "":
		return nil, f.Errorf(0, "the title rows (%q) do not name the state and month", titleCells(f))
	case state != "" && state != out.State:
		return nil, f.Errorf(0, "the title rows say %s; the import is for %s", out.State, state)
	case month != "" && month != out.Month:
		return nil, f.Errorf(0, "the title rows say %s; the import is for %s", out.Month, month)
	}
	switch {
	case strings.Contains(title, "COM DESONERACAO"):
		out.Regime = domain.Desonerado
	case strings.Contains(title, "SEM DESONERACAO"):
		out.Regime = domain.NaoDesonerado
	default:
		return nil, f.Errorf(0, "the title rows (%q) state no regime (Sem desoneração or Com desoneração)", titleCells(f))
	}
	n := readName(name) // a renamed file: its name must not contradict its titles
	switch {
	case n.State != "" && n.State != out.State:
		return nil, f.Errorf(0, "the file says state %s, the file name says %s", out.State, n.State)
	case n.Month != "" && n.Month != out.Month:
		return nil, f.Errorf(0, "the file says month %s, the file name says %s", out.Month, n.Month)
	case n.Regime != nil && *n.Regime != out.Regime:
		return nil, f.Errorf(0, "the file says %s, the file name says %s", out.Regime, *n.Regime)
	}
	code, err := f.Column("CODIGO", false)
	if err != nil {
		return nil, err
	}
	desc, err := f.Column("DESCRICAO", true)
	if err != nil {
		return nil, err
	}
	unit := f.Header.Index("UNID.") // as published
	if unit < 0 {
		if unit, err = f.Column("UNIDADE", true); err != nil {
			return nil, err
		}
	}
	total, err := f.Column("TOTAL", true)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	first := f.Header.Prefix("ENCARGOS SOCIAIS") // the first item's column
	err = readRows(f, func(row Row) error {
		c := strings.TrimSpace(row.Cell(code))
		if c == "" { // the item codes under the header, the legend below the table
			if out.Items == nil && len(out.Rows) == 0 && chargesItemCode.MatchString(strings.TrimSpace(row.Cell(first))) {
				for i := first; i < total; i++ {
					it := strings.TrimSpace(row.Cell(i))
					if !chargesItemCode.MatchString(it) {
						return f.Errorf(row.Line, "the item codes under the header stop at column %d (%q)", i+1, it)
					}
					out.Items = append(out.Items, it)
				}
			}
			f.Skip()
			return nil
		}
		if seen[c] {
			return f.Errorf(row.Line, "the code %s is listed twice", c)
		}
		seen[c] = true
		t, err := chargesPercent(f, row, total, "Total (%)")
		if err != nil {
			return err
		}
		var items []decimal.Decimal
		for i := range out.Items {
			p, err := chargesPercent(f, row, first+i, out.Items[i]+" (%)")
			if err != nil {
				return err
			}
			items = append(items, p)
		}
		u := strings.TrimSpace(row.Cell(unit))
		out.Rows = append(out.Rows, ChargesRow{Code: c, Description: strings.TrimSpace(row.Cell(desc)), Unit: u,
			Monthly: NormalizeName(u) == "MES", Items: items, Total: t})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out.Rows) == 0 {
		return nil, f.Errorf(0, "the table lists no labour code")
	}
	return out, nil
}

// chargesItemCode is an item code of the row under the header (A1, B10).
var chargesItemCode = regexp.MustCompile(`^[A-Z][0-9]{1,2}$`)

// chargesPercent reads a percentage cell: a fraction (XLSX's stored 1.0962)
// or a text with "%" ("109.62%", "109,62%"), as percent, exactly.
func chargesPercent(f *File, row Row, col int, what string) (decimal.Decimal, error) {
	s := strings.TrimSpace(row.Cell(col))
	if p, ok := strings.CutSuffix(s, "%"); ok {
		cells := append([]string(nil), row.Cells...)
		cells[col] = strings.TrimSpace(p)
		return f.Decimal(Row{Line: row.Line, Cells: cells}, col, what)
	}
	d, err := f.Decimal(row, col, what)
	return d.Shift(2), err
}

// ImportSicroCharges is the import that reads DNIT's encargos sociais
// tables of a package (costdb import sicro-charges).
const ImportSicroCharges = "sicro-charges"

// SicroCharges is the "bank" of DNIT's encargos sociais tables for the
// package walker: a file of unknown name is read when it has the table's
// header.
func SicroCharges() Bank {
	return Bank{Name: "SICRO3", Publisher: "SICRO/DNIT", Formats: []Format{sicroChargesHeader{}}}
}
