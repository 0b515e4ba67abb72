package sheetimport

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// realSinapi is the project's real SINAPI PE 2024-10 synthetic composition
// file (adapters/bankfiles/testdata/README.md gives its provenance).
const realSinapi = "../bankfiles/testdata/sinapi-pe-202410/SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv"

type refLine struct{ code, desc, unit, price string }

func realLines(t *testing.T) []refLine {
	t.Helper()
	data, err := os.ReadFile(realSinapi)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = ';'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []refLine
	for _, rec := range recs[1:] {
		out = append(out, refLine{rec[6], rec[7], rec[8], rec[10]})
	}
	if len(out) > 300 { // the first 300 compositions: enough stages and prices, fast
		out = out[:300]
	}
	if len(out) < 300 {
		t.Fatalf("%d compositions in %s", len(out), realSinapi)
	}
	return out
}

func brToDec(t *testing.T, s string) decimal.Decimal {
	d, err := decimal.NewFromString(strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", "."))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// brText writes d the Brazilian way, with thousands dots ("1.234,56").
func brText(d decimal.Decimal) string {
	s := d.StringFixed(2)
	ip, fp, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(c)
	}
	return b.String() + "," + fp
}

// TestRealTenderSheet writes a tender sheet from real SINAPI compositions
// (clean, and messy: merged titles, subtotal and total rows, numbers typed
// as text with R$ and thousands dots, a row with an unknown code and no
// quantity) and reads back the same lines and the same total.
func TestRealTenderSheet(t *testing.T) {
	ref := realLines(t)
	for _, messy := range []bool{false, true} {
		t.Run(fmt.Sprintf("messy=%v", messy), func(t *testing.T) {
			f := excelize.NewFile()
			s := "Sheet1"
			row := 1
			put := func(v ...any) {
				cell, _ := excelize.CoordinatesToCellName(1, row)
				if err := f.SetSheetRow(s, cell, &v); err != nil {
					t.Fatal(err)
				}
				row++
			}
			put("PLANILHA ORÇAMENTÁRIA — SINAPI PE 10/2024 NÃO DESONERADO")
			if messy {
				f.MergeCell(s, "A1", "H1")
				put()
			}
			put("Item", "Código", "Banco", "Descrição", "Unid.", "Quant.", "Preço unitário (R$)", "Total (R$)")
			want := decimal.Zero
			wantLines := 0
			for i, r := range ref {
				stage := i/3 + 1
				if i%3 == 0 {
					put(fmt.Sprint(stage), nil, nil, fmt.Sprintf("ETAPA %d", stage))
					if messy {
						f.MergeCell(s, fmt.Sprintf("D%d", row-1), fmt.Sprintf("H%d", row-1))
					}
				}
				qty := decimal.New(int64(1000+i*37), -2)
				price := brToDec(t, r.price)
				total := qty.Mul(price).Round(2)
				want = want.Add(total)
				wantLines++
				num := fmt.Sprintf("%d.%d", stage, i%3+1)
				if messy {
					put(num, r.code, "SINAPI", r.desc, r.unit, brText(qty), "R$ "+brText(price), brText(total))
				} else {
					q, _ := qty.Float64()
					p, _ := price.Float64()
					tot, _ := total.Float64()
					put(num, r.code, "SINAPI", r.desc, r.unit, q, p, tot)
				}
				if messy && i%3 == 2 {
					put(nil, nil, nil, fmt.Sprintf("SUBTOTAL ETAPA %d", stage))
					put()
				}
			}
			if messy {
				put("999.1", "999999", "SINAPI", "CÓDIGO DESCONHECIDO SEM QUANTIDADE", "UN", "", "R$ 1,00")
			}
			put("TOTAL GERAL", nil, nil, nil, nil, nil, nil, brText(want))
			var buf bytes.Buffer
			if err := f.Write(&buf); err != nil {
				t.Fatal(err)
			}
			sh := read(t, buf.Bytes(), DefaultLimits)
			if messy {
				if len(sh.Errors) != 1 || sh.Errors[0].Row != row-2 || sh.Errors[0].Column != "quantity" {
					t.Fatalf("errors %v, want the quantity of row %d", sh.Errors, row-2)
				}
			} else if len(sh.Errors) != 0 {
				t.Fatalf("errors %v", sh.Errors)
			}
			if len(sh.Lines) != wantLines {
				t.Fatalf("%d lines, want %d", len(sh.Lines), wantLines)
			}
			got := decimal.Zero
			for i, l := range sh.Lines {
				if l.Code != ref[i].code || l.Description != strings.TrimSpace(ref[i].desc) || !l.UnitPrice.Equal(brToDec(t, ref[i].price)) {
					t.Fatalf("line %d: %+v, want %+v", i, l, ref[i])
				}
				got = got.Add(l.Quantity.Mul(l.UnitPrice).Round(2))
			}
			if !got.Equal(want) {
				t.Fatalf("total %s, want %s", got, want)
			}
		})
	}
}
