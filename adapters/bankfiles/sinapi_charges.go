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

// This file reads Caixa's "SINAPI - Composição de Encargos Sociais" of a
// state: the social charges SINAPI prices labour with, for horistas and
// mensalistas, with and without desoneração. No XLSX or CSV of it was
// found in public (docs/decisions.md, "Labour charges tables"); the layout
// read here is the one its published PDFs show (Acre 04/2013 and 03/2016,
// Rio Grande do Sul 11/2022):
//
//	SINAPI - COMPOSIÇÃO DE ENCARGOS SOCIAIS
//	ACRE VIGÊNCIA A PARTIR DE 04/2013
//	ENCARGOS SOCIAIS SOBRE A MÃO DE OBRA
//	CÓDIGO | DESCRIÇÃO | COM DESONERAÇÃO |              | SEM DESONERAÇÃO |
//	       |           | HORISTA %       | MENSALISTA % | HORISTA %       | MENSALISTA %
//	A1     | INSS      | 0,00%           | 0,00%        | 20,00%          | 20,00%
//	…
//	A      | Total     | …
//	…      (groups B, C, D the same)
//	TOTAL(A+B+C+D) |   | 84,30%          | 47,78%       | 113,07%         | 71,17%
//
// A cell "Não incide" (B1, B2, B7 do not apply to a mensalista) is 0: the
// item adds nothing to the total. Group subtotal rows are not stored (the
// items and the file's total are). The file becomes two tables, one per
// regime, each with the rows HORISTA (unit h) and MENSALISTA (unit mês).

// sinapiChargesHeader recognises the table's header row.
type sinapiChargesHeader struct{}

func (sinapiChargesHeader) Name() string { return "SINAPI encargos sociais" }

func (sinapiChargesHeader) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("COM DESONERACAO") >= 0 && h.Prefix("SEM DESONERACAO") >= 0
}

func (sinapiChargesHeader) Read(*File, *Builder) error {
	return errors.New("bankfiles: the SINAPI encargos table is read by ReadSinapiCharges")
}

// SinapiCharges is Caixa's encargos sociais table, as a Bank whose header
// tells its files (a package's file of no known name).
func SinapiCharges() Bank {
	return Bank{Name: "SINAPI", Publisher: "SINAPI/Caixa", Formats: []Format{sinapiChargesHeader{}}}
}

// ImportSinapiCharges is the import that reads Caixa's encargos sociais
// tables (costdb import sinapi-charges).
const ImportSinapiCharges = "sinapi-charges"

var (
	sinapiChargesMonth = regexp.MustCompile(`VIGENCIA A PARTIR DE (0[1-9]|1[0-2])/(\d{4})`)
	sinapiChargesTotal = regexp.MustCompile(`^TOTAL ?\(A ?\+ ?B ?\+ ?C ?\+ ?D\)$`)
	sinapiChargesGroup = regexp.MustCompile(`^[A-D]( TOTAL)?$`)
)

// ReadSinapiCharges reads Caixa's encargos sociais table of a state from r
// (XLSX or a CSV of its cells; name is used in messages): two tables, com
// and sem desoneração. The state and month come from the title rows;
// state and month, when not "", must agree with them, as must the file's
// name (an error naming both otherwise).
func ReadSinapiCharges(ctx context.Context, name string, r io.ReaderAt, size int64, state, month string) ([]*ChargesTable, error) {
	f, _, err := newFile(ctx, name, r, size, []Format{sinapiChargesHeader{}}, Limits{}.withDefaults())
	if errors.Is(err, errNoHeader) {
		return nil, badFile(name, 0, "not Caixa's encargos sociais table: no header with Código, Com desoneração and Sem desoneração in the first %d rows", maxTitleRows)
	}
	if err != nil {
		return nil, err
	}
	defer f.src.close()
	title := f.TitleText()
	st, mo := titleState(title), ""
	if m := sinapiChargesMonth.FindStringSubmatch(title); m != nil {
		mo = m[1] + "/" + m[2]
	}
	n := readName(name)
	switch {
	case st == "" || mo == "":
		return nil, f.Errorf(0, "the title rows (%q) do not name the state and the month (VIGÊNCIA A PARTIR DE MM/AAAA)", titleCells(f))
	case state != "" && state != st:
		return nil, f.Errorf(0, "the title rows say %s; the import is for %s", st, state)
	case month != "" && month != mo:
		return nil, f.Errorf(0, "the title rows say %s; the import is for %s", mo, month)
	case n.State != "" && n.State != st:
		return nil, f.Errorf(0, "the file says state %s, the file name says %s", st, n.State)
	case n.Month != "" && n.Month != mo:
		return nil, f.Errorf(0, "the file says month %s, the file name says %s", mo, n.Month)
	}
	code, err := f.Column("CODIGO", false)
	if err != nil {
		return nil, err
	}
	desc, err := f.Column("DESCRICAO", true)
	if err != nil {
		return nil, err
	}
	com, sem := f.Header.Prefix("COM DESONERACAO"), f.Header.Prefix("SEM DESONERACAO")
	// Per regime, the columns of the horista and the mensalista.
	cols := map[domain.Regime][2]int{domain.Desonerado: {com, com + 1}, domain.NaoDesonerado: {sem, sem + 1}}
	var items []string
	sums := map[domain.Regime][2][]decimal.Decimal{}
	totals := map[domain.Regime][2]decimal.Decimal{}
	seen := map[string]bool{}
	subheader, gotTotal := false, false
	err = readRows(f, func(row Row) error {
		c := NormalizeName(strings.TrimSpace(row.Cell(code)))
		d := NormalizeName(strings.TrimSpace(row.Cell(desc)))
		switch {
		case c == "" && !subheader && len(items) == 0:
			// HORISTA % | MENSALISTA % under each regime.
			for _, cc := range cols {
				if !strings.HasPrefix(NormalizeName(row.Cell(cc[0])), "HORISTA") || !strings.HasPrefix(NormalizeName(row.Cell(cc[1])), "MENSALISTA") {
					return f.Errorf(row.Line, "the row under the header must name HORISTA %% and MENSALISTA %% under each regime, in that order")
				}
			}
			subheader = true
			f.Skip()
			return nil
		case sinapiChargesTotal.MatchString(c) || sinapiChargesTotal.MatchString(d):
			if gotTotal {
				return f.Errorf(row.Line, "a second TOTAL(A+B+C+D) row")
			}
			gotTotal = true
			for reg, cc := range cols {
				var t [2]decimal.Decimal
				for k := range 2 {
					p, err := sinapiChargesPercent(f, row, cc[k], "TOTAL(A+B+C+D)")
					if err != nil {
						return err
					}
					t[k] = p
				}
				totals[reg] = t
			}
			return nil
		case c == "" || sinapiChargesGroup.MatchString(c) || strings.HasPrefix(d, "TOTAL") || gotTotal:
			f.Skip() // a group's subtotal, a blank row, a note below the table
			return nil
		case !chargesItemCode.MatchString(c):
			return f.Errorf(row.Line, "%q is not an item code (A1 … D2) nor a total", row.Cell(code))
		}
		if !subheader {
			return f.Errorf(row.Line, "the row under the header (HORISTA %% | MENSALISTA %%) is missing")
		}
		if seen[c] {
			return f.Errorf(row.Line, "the item %s is listed twice", c)
		}
		seen[c] = true
		items = append(items, c)
		for reg, cc := range cols {
			s := sums[reg]
			for k := range 2 {
				p, err := sinapiChargesPercent(f, row, cc[k], c+" (%)")
				if err != nil {
					return err
				}
				s[k] = append(s[k], p)
			}
			sums[reg] = s
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, f.Errorf(0, "the table lists no item (A1 … D2)")
	}
	if !gotTotal {
		return nil, f.Errorf(0, "the table has no TOTAL(A+B+C+D) row")
	}
	var out []*ChargesTable
	for _, reg := range []domain.Regime{domain.NaoDesonerado, domain.Desonerado} {
		t := &ChargesTable{Bank: "SINAPI", State: st, Month: mo, Regime: reg, Items: items}
		t.Rows = []ChargesRow{
			{Code: "HORISTA", Description: "Horista", Unit: "h", Items: sums[reg][0], Total: totals[reg][0]},
			{Code: "MENSALISTA", Description: "Mensalista", Unit: "mês", Monthly: true, Items: sums[reg][1], Total: totals[reg][1]},
		}
		out = append(out, t)
	}
	return out, nil
}

// sinapiChargesPercent is chargesPercent, with "Não incide" (the item does
// not apply) read as 0.
func sinapiChargesPercent(f *File, row Row, col int, what string) (decimal.Decimal, error) {
	if NormalizeName(strings.TrimSpace(row.Cell(col))) == "NAO INCIDE" {
		return decimal.Zero, nil
	}
	return chargesPercent(f, row, col, what)
}
