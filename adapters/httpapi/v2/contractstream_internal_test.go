package v2

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// TestContractStreamsAreTheDocuments: the streamed boletim and statement
// are byte for byte what google/jsonapi writes from boletimDoc and
// statementDoc (the documents they replaced), readjusted or not.
func TestContractStreamsAreTheDocuments(t *testing.T) {
	dec := decimal.RequireFromString
	c := &domain.Contract{ID: "c1", Number: "CT-1/2026", Contractor: "Construtora \"Exemplo\" & Cia", Retention: dec("5"),
		BDI: domain.BDIRule{Rate: dec("25"), Mode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate}, BaseMonth: "2026-08"}
	c.Lines = []domain.ContractLine{
		{ID: "n2", Number: "1.1", Stage: "1", StageName: "Alvenaria", Bank: "SINAPI", Code: "89306", Description: "ALVENARIA <14 CM>", Unit: "M2",
			Quantity: dec("120.5"), UnitPrice: dec("113.33"), UnitPriceWithBDI: dec("141.66")},
		{ID: "n4", Number: "2", Bank: "SINAPI", Code: "34586", Description: "CIMENTO", Unit: "KG", Quantity: dec("1000"),
			UnitPrice: dec("0.82"), UnitPriceWithBDI: dec("1.02")},
	}
	s := domain.NewContractState(c, nil)
	ms := []*domain.Measurement{
		{ContractID: "c1", Number: 1, PeriodStart: "2026-09-01", PeriodEnd: "2026-09-30", Status: domain.StatusApproved,
			Quantities: map[string]decimal.Decimal{"n2": dec("40.25"), "n4": dec("100")}},
		{ContractID: "c1", Number: 2, PeriodStart: "2027-09-01", PeriodEnd: "2027-09-30", Status: domain.StatusSubmitted,
			Quantities: map[string]decimal.Decimal{"n2": dec("0.333")}},
	}
	incc, err := domain.NewIndexSeries("INCC", []domain.IndexPoint{{Month: "08/2026", Value: dec("1000")}, {Month: "08/2027", Value: dec("1057.321")}})
	if err != nil {
		t.Fatal(err)
	}
	h := &handlers{}
	// The oracle: the document as writeDoc wrote it before.
	oracle := func(target string, doc any) string {
		w := httptest.NewRecorder()
		h.writeDoc(w, httptest.NewRequest("GET", target, nil), 200, doc)
		return w.Body.String()
	}
	for _, readjust := range []bool{false, true} {
		for _, m := range ms {
			b := s.Boletim(m, ms)
			if readjust {
				b.ApplyReadjustment(incc)
			} else {
				b.ReadjustmentNote = "the company has no index INCC"
			}
			for _, target := range []string{"/", "/?fields%5Bboletins%5D=net,rows,readjustment_factor"} {
				w := httptest.NewRecorder()
				h.streamBoletim(w, httptest.NewRequest("GET", target, nil), b)
				if want := oracle(target, boletimOf(b)); w.Body.String() != want {
					t.Errorf("boletim %d (readjusted %v) %s:\n%s\nwant\n%s", m.Number, readjust, target, w.Body, want)
				}
			}
		}
	}
	st := s.Statement(ms)
	for _, target := range []string{"/", "/?fields%5Bcontract-statements%5D=balance,rows"} {
		w := httptest.NewRecorder()
		h.streamStatement(w, httptest.NewRequest("GET", target, nil), s, ms)
		var got, want any
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatalf("statement %s: %v\n%s", target, err, w.Body)
		}
		_ = json.Unmarshal([]byte(oracle(target, statementOf(st))), &want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("statement %s (-document +stream):\n%s", target, diff)
		}
	}
}
