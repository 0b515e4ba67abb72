package bankfiles_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// The real cut of Caixa's 12/2025 manutenções workbook (testdata README).
func TestReadSinapiChangeLogRealCut(t *testing.T) {
	path := filepath.Join("testdata", "sinapi-manutencoes-202512", "SINAPI_Manutenções_2025_12_cut.xlsx")
	log, err := bankfiles.ReadSinapiChangeLog(context.Background(), path, bankfiles.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if log.Month != "12/2025" || log.Bank != "SINAPI" {
		t.Fatalf("month %q bank %q, want 12/2025 SINAPI", log.Month, log.Bank)
	}
	if len(log.Changes) != 31 {
		t.Fatalf("%d changes, want 31", len(log.Changes))
	}
	if got := strings.Join(log.Months(), " "); got != "12/2025 10/2025 07/2009" {
		t.Errorf("months %q", got)
	}
	first := log.Changes[0]
	want := domain.BankChange{Bank: "SINAPI", Month: "12/2025", Code: "4803", Kind: domain.ChangeDescription,
		Description: "RODAPE DE BORRACHA LISO, H = *70* MM, E = *2* MM, PARA ARGAMASSA, PRETO", Text: "ALTERAÇÃO DE DESCRIÇÃO"}
	if first != want {
		t.Errorf("first change\n got %+v\nwant %+v", first, want)
	}
	kinds := map[domain.ChangeKind]int{}
	comps := 0
	for _, c := range log.Changes {
		kinds[c.Kind]++
		if c.Composition {
			comps++
		}
	}
	last := log.Changes[len(log.Changes)-1]
	if last.Code != "5780" || !last.Composition || last.Kind != domain.ChangeDeactivated || last.Month != "07/2009" {
		t.Errorf("last change %+v", last)
	}
	for _, k := range []domain.ChangeKind{domain.ChangeDeactivated, domain.ChangeCreated, domain.ChangeDescription, domain.ChangeCoefficients, domain.ChangePublished} {
		if kinds[k] == 0 {
			t.Errorf("no change of kind %s in the cut: %v", k, kinds)
		}
	}
	if comps == 0 || comps == len(log.Changes) {
		t.Errorf("%d compositions of %d changes", comps, len(log.Changes))
	}
}

func TestParseChangeKind(t *testing.T) {
	for text, want := range map[string]domain.ChangeKind{
		"DESATIVAÇÃO":                      domain.ChangeDeactivated,
		"COMPOSIÇÃO DESATIVADA":            domain.ChangeDeactivated,
		"Composição  suspensa":             domain.ChangeSuspended,
		"CRIAÇÃO DE INSUMO SEM PREÇO":      domain.ChangeCreated,
		"CRIAÇÃO DE COMPOSIÇÃO AUXILIAR":   domain.ChangeCreated,
		"ALTERAÇÃO DE DESCRIÇÃO":           domain.ChangeDescription,
		"ALTERAÇÃO DE UNIDADE":             domain.ChangeUnit,
		"ALTERAÇÃO DE ITENS/COEFICIENTES":  domain.ChangeCoefficients,
		"ALTERAÇÃO DE FAMÍLIA/COEFICIENTE": domain.ChangeCoefficients,
		"INÍCIO DIVULGAÇÃO DE PREÇO":       domain.ChangePublished,
	} {
		if got, ok := bankfiles.ParseChangeKind(text); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", text, got, ok, want)
		}
	}
	if k, ok := bankfiles.ParseChangeKind("ALTERAÇÃO DE PREÇO"); ok {
		t.Errorf("unknown words read as %q", k)
	}
}

// A workbook in Caixa's layout with bad rows: every bad row named at once,
// nothing returned.
func TestReadSinapiChangeLogBadRows(t *testing.T) {
	f := excelize.NewFile()
	sh := "Manutenções"
	f.SetSheetName("Sheet1", sh)
	rows := [][]any{
		{"SINAPI - Sistema Nacional de Pesquisa de Custos e Índices da Construção Civil"},
		{"RELATÓRIO DE MANUTENÇÕES DE INSUMOS E COMPOSIÇÕES"},
		{"Mês de Referência:", "12/2025"},
		{},
		{},
		{"Referência", "Tipo", "Código", "Descrição", "Manutenção"},
		{45992, "INSUMO", 4803, "RODAPE", "ALTERAÇÃO DE DESCRIÇÃO"},
		{"13/2025", "INSUMO", 1, "X", "DESATIVAÇÃO"},
		{45992, "SERVIÇO", 2, "Y", "DESATIVAÇÃO"},
		{45992, "INSUMO", "abc", "Z", "ALTERAÇÃO DE PREÇO"},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sh, cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "SINAPI_Manutenções_2025_12.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	log, err := bankfiles.ReadSinapiChangeLog(context.Background(), path, bankfiles.DefaultLimits)
	if err == nil {
		t.Fatalf("read %d changes from a workbook with bad rows", len(log.Changes))
	}
	for _, want := range []string{`row 8: Referência "13/2025"`, `row 9: Tipo "SERVIÇO"`, `row 10: Código "abc"`, `row 10: Manutenção "ALTERAÇÃO DE PREÇO"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
