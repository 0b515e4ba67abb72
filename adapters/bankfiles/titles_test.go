package bankfiles_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// sinapiTitle is the title block of Caixa's per-state SINAPI XLSX reports
// up to 2024 (the header on row 7; "MES DE COLETA: MM/AAAA" on row 3 and
// "LOCALIDADE: … - <capital>" on row 4, as public readers of the real
// files take them; the CSV copies in testdata lost these rows), with the
// regime line.
func sinapiTitle(month, place, regime string) []string {
	return []string{"SISTEMA NACIONAL DE PESQUISA DE CUSTOS E ÍNDICES DA CONSTRUÇÃO CIVIL", "PREÇOS DE INSUMOS",
		"MÊS DE COLETA: " + month, "LOCALIDADE: " + place, "ENCARGOS SOCIAIS: " + regime, ""}
}

func TestReadTitle(t *testing.T) {
	t.Parallel()
	nd, d := domain.NaoDesonerado, domain.Desonerado
	cases := []struct {
		title  string
		state  string
		month  string
		regime *domain.Regime
		noEnc  bool
	}{
		{"MES DE COLETA: 10/2024 - LOCALIDADE: 26 - RECIFE - NAO DESONERADO", "PE", "10/2024", &nd, false},
		{"DATA DE EMISSAO: 13/11/2024 - DATA DE PRECO: 9/2024 - LOCALIDADE: BELEM", "PA", "09/2024", nil, false},
		{"LOCALIDADE: PE - RECIFE - DESONERADO", "PE", "", &d, false},
		{"CGCIT - SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO - DNIT - ALAGOAS - JANEIRO/2024 - COM DESONERACAO", "AL", "01/2024", &d, false},
		{"MATO GROSSO DO SUL - JUL/2024 - SEM DESONERACAO", "MS", "07/2024", &nd, false},
		{"SICRO - AL - JANEIRO/2024", "AL", "01/2024", nil, false},
		{"RELATORIO PARA JANEIRO/2024", "", "01/2024", nil, false},
		{"PRECOS PARA OBRAS - DATA DE EMISSAO: 13/11/2024", "", "", nil, false},
		{"LOCALIDADE: SAO PAULO - SEM ENCARGOS SOCIAIS", "SP", "", nil, true},
		{"LOCALIDADE: RECIFE - VER TAMBEM SAO PAULO", "PE", "", nil, false},
		{"LOCALIDADE: PE - RECIFE", "PE", "", nil, false},
		{"LOCALIDADE: MATO GROSSO DO SUL", "MS", "", nil, false},
		{"", "", "", nil, false},
	}
	for _, tc := range cases {
		got := bankfiles.ReadTitle(tc.title)
		if got.State != tc.state || got.Month != tc.month || got.WithoutCharges != tc.noEnc ||
			(got.Regime == nil) != (tc.regime == nil) || got.Regime != nil && *got.Regime != *tc.regime {
			t.Errorf("ReadTitle(%q) = %+v, want %s %s %v %v", tc.title, got, tc.state, tc.month, tc.regime, tc.noEnc)
		}
	}
}

// A real file renamed to another state, month or regime, or imported with
// flags its titles contradict, is refused with both values named, and
// nothing is written; without a flag the titles decide.
func TestFileOwnWord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "c.db"))
	mustImport(t, db, bankfiles.OfficialSicro(), "AL", "01/2024", alFiles...)
	before := fileHash(t, db.path)

	// SINAPI: the real PE 10/2024 rows under the title block of the
	// report as Caixa published it.
	peXLSX := func(month, place, regime string) []byte {
		return csvToXLSX(t, peInsumos, sinapiTitle(month, place, regime)...)
	}
	nd, d := domain.NaoDesonerado, domain.Desonerado
	const ins = "SINAPI_Preco_Ref_Insumos_"
	sinapi, sicro := bankfiles.OfficialSinapi(), bankfiles.OfficialSicro()
	cases := []struct {
		name   string
		bank   bankfiles.Bank
		state  string
		month  string
		regime *domain.Regime
		file   string // its name
		data   []byte
		want   string
	}{
		{"SINAPI Belém's prices named PE", sinapi, "PE", "10/2024", nil, ins + "PE_202410_Desonerado.xlsx",
			peXLSX("10/2024", "15 - BELEM", "DESONERADO"), "the file says state PA (BELEM), the file name says PE"},
		{"SINAPI Belém's prices imported as PE", sinapi, "PE", "10/2024", nil, ins + "Desonerado.xlsx",
			peXLSX("10/2024", "BELEM", "DESONERADO"), "the file says state PA (BELEM), the import (--state) says PE"},
		{"SINAPI 12/2024 named 202411", sinapi, "PE", "11/2024", nil, ins + "PE_202411_Desonerado.xlsx",
			peXLSX("12/2024", "RECIFE", "DESONERADO"), "the file says month 12/2024, the file name says 11/2024"},
		{"SINAPI 12/2024 imported as 11/2024", sinapi, "PE", "11/2024", nil, ins + "Desonerado.xlsx",
			peXLSX("12/2024", "RECIFE", "DESONERADO"), "the file says month 12/2024, the import (--month) says 11/2024"},
		{"SINAPI desonerado named NaoDesonerado", sinapi, "PE", "10/2024", nil, ins + "PE_202410_NaoDesonerado.xlsx",
			peXLSX("10/2024", "RECIFE", "DESONERADO"), "the file says desonerado, the file name says nao-desonerado"},
		{"SINAPI desonerado with --regime", sinapi, "PE", "10/2024", &nd, ins + "PE_202410.xlsx",
			peXLSX("10/2024", "RECIFE", "DESONERADO"), "the file says desonerado, the import (--regime) says nao-desonerado"},
		{"SINAPI sem encargos", sinapi, "PE", "10/2024", nil, ins + "PE_202410_Desonerado.xlsx",
			peXLSX("10/2024", "RECIFE", "DESONERADO SEM ENCARGOS"), "without labour charges"},
		// SICRO: DNIT's real AL 01/2024 reports, as published, renamed.
		{"SICRO AL named PE", sicro, "AL", "01/2024", nil, "PE 01-2024 Relatório Sintético de Mão de Obra com desoneração.xlsx",
			readFile(t, alLaborD), "the file says state AL (ALAGOAS), the file name says PE"},
		{"SICRO 01/2024 named 02-2024", sicro, "AL", "01/2024", nil, "AL 02-2024 Relatório Sintético de Materiais.xlsx",
			readFile(t, alMaterials), "the file says month 01/2024, the file name says 02/2024"},
		{"SICRO com desoneração named sem", sicro, "AL", "01/2024", nil, "SICRO_AL_202401_Relatorio_Sintetico_Mao_de_Obra_sem_desoneracao.xlsx",
			readFile(t, alLaborD), "the file says desonerado, the file name says nao-desonerado"},
		{"SICRO AL imported as PE", sicro, "PE", "01/2024", nil, "Relatorio_Sintetico_Materiais.xlsx",
			readFile(t, alMaterials), "say AL 01/2024; the import is for PE 01/2024"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			writeFile(t, path, tc.data)
			_, _, err := importFiles(context.Background(), db.svc, tc.bank, tc.state, tc.month, tc.regime, path)
			if err == nil {
				t.Fatal("the import succeeded")
			}
			if domain.ErrorCode(err) != domain.EBADREQUEST || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q (%s), want it to name the file and say %q", err, domain.ErrorCode(err), tc.want)
			}
			if fileHash(t, db.path) != before {
				t.Error("the database file changed")
			}
		})
	}

	// Without a flag, and a name that says no regime, the titles decide.
	path := filepath.Join(t.TempDir(), ins+"PE_202410.xlsx")
	writeFile(t, path, peXLSX("10/2024", "26 - RECIFE", "NÃO DESONERADO"))
	im, _, err := importFiles(context.Background(), db.svc, sinapi, "PE", "10/2024", nil, path)
	if err != nil {
		t.Fatal(err)
	}
	if f := im.Files()[0]; len(f.Regimes) != 1 || f.Regimes[0] != nd {
		t.Errorf("regimes %v, want the title's nao-desonerado", f.Regimes)
	}
	if r := db.resource(t, peKey, "38605"); !r.Priced(nd) || r.Priced(d) {
		t.Errorf("resource 38605: %+v, want a não desonerado price only", r)
	}
}

// The national workbook whose sheets state 08/2026, named for another
// month, is refused naming both.
func TestWorkbookMonthAgainstName(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "SINAPI_Referência_2026_07.xlsx")
	writeFile(t, path, readFile(t, "testdata/sinapi-workbook-202608/SINAPI_Referencia_2026_08.xlsx"))
	_, err := readWorkbook(t, path, bankfiles.WorkbookOptions{})
	if err == nil || !strings.Contains(err.Error(), "the workbook says month 08/2026") || !strings.Contains(err.Error(), "the file name says 07/2026") {
		t.Errorf("err = %v, want the two months named", err)
	}
}
