package bankfiles_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// The names of the files of the official packages, as published, and the
// import that reads each ("" when none does).
func TestClassify(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		known bool
		imp   string
	}{
		{"SINAPI_Referência_2025_12.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Manutenções_2025_12.xlsx", true, ""},
		{"SINAPI_familias_e_coeficientes_2025_12.xlsx", true, ""},
		{"SINAPI_mao_de_obra_2025_12.xlsx", true, ""},
		{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Custo_Ref_Composicoes_Analitico_SP_202412_NaoDesonerado.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Custo_Ref_Composicoes_Analitico_SP_202412_NaoDesonerado.pdf", true, ""},
		{"_SINAPI_Relatório_Família_de_Insumos_2024_12.xlsx", true, ""},
		{"Notas_SINAPI.pdf", true, ""},
		{"AL 01-2024 Relatório Sintético de Composições de Custos.xlsx", true, bankfiles.ImportSicro},
		{"AL 01-2024 Relatório Sintético de Equipamentos com desoneração.xlsx", true, bankfiles.ImportSicro},
		{"AL 01-2024 Relatório Sintético de Mão de Obra.xlsx", true, bankfiles.ImportSicro},
		{"SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx", true, bankfiles.ImportSicro},
		{"AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx", true, ""},
		{"AL 01-2024 Relatório Analítico de Composições de Custos.xlsx", true, ""},
		{"AL 01-2024 Relatório Sintético de Materiais.pdf", true, ""},
		{"composicoes.csv", false, ""},
		{"leia-me.xls", false, ""},
	}
	for _, tc := range cases {
		k, ok := bankfiles.Classify(tc.name)
		if ok != tc.known || k.Import != tc.imp || ok && k.Import == "" && k.Skip == "" {
			t.Errorf("Classify(%q) = %+v, %v; want known %v, import %q", tc.name, k, ok, tc.known, tc.imp)
		}
	}
}
