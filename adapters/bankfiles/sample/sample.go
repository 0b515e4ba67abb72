// Package sample embeds two small, real reference bank editions, so that a
// fresh costdb has data to show and tests have real prices to work on:
//
//   - SINAPI MG 08/2026 (Caixa), both regimes: 19 insumos, 8 compositions and
//     the analytic structure of 5 of them (alvenaria estrutural), a subset whose
//     published totals recompute exactly;
//   - SICRO3 AL 01/2024 (DNIT), both regimes: rows cut from the synthetic
//     reports of equipment, labour, materials and compositions.
//
// The files under data/ are copies of public data (cite SINAPI/CAIXA and
// SICRO/DNIT); data/README.md gives their provenance and how they are read.
// Nothing outside this package's embedded files is read.
package sample

import (
	"embed"
	"io"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

//go:embed data/sinapi-mg-202608/*.csv data/sinapi-mg-202608/*.json data/sicro-al-202401/*.csv
var files embed.FS

// Edition is one bank edition's data ready to import.
type Edition = bankfiles.Edition

// The embedded files.
const (
	sinapiDir = "data/sinapi-mg-202608/"
	sicroDir  = "data/sicro-al-202401/"
	sicroPre  = sicroDir + "SICRO_AL_202401_Relatorio_Sintetico_"
)

// SinapiSource and SicroSource are the Source texts of the two editions.
const (
	SinapiSource = "SINAPI/CAIXA (Caixa Econômica Federal / IBGE), MG 08/2026, preços medianos " +
		"não desonerados e desonerados; subset of the normalised files of " +
		"github.com/gustavoecivil/universo-sinapi@9c0a8dbd6ad82c1aa50e1a4ba8ce4dced920490e (prices, MIT) and " +
		"github.com/kayque-soares/sinapi-sp-dados@07095b0a6c8244df079cf7b8d0c85f9dd5e244c6 (structure)"
	SicroSource = "SICRO/DNIT, AL 01/2024, Relatórios Sintéticos (equipamentos, mão de obra, materiais, " +
		"composições de custos), sem e com desoneração; rows cut from the reports redistributed in " +
		"github.com/DrKobun/SINAPI-e-SICRO-Downloads-@7643a9bbea52cf65d6e6c057460bbad45d97facc"
)

// Load parses both embedded editions: SINAPI MG 08/2026 first, then SICRO3
// AL 01/2024. Each call parses afresh, so the caller owns what it gets. The
// editions' ImportedAt is left zero for the importer to set.
func Load() ([]Edition, error) {
	sinapi, err := loadSinapi()
	if err != nil {
		return nil, err
	}
	sicro, err := loadSicro()
	if err != nil {
		return nil, err
	}
	return []Edition{*sinapi, *sicro}, nil
}

func loadSinapi() (*Edition, error) {
	var r [3]io.Reader
	for i, name := range []string{"insumos_mg_subset.csv", "composicoes_mg_subset.csv", "estrutura_2026-08_subset.json"} {
		f, err := files.Open(sinapiDir + name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r[i] = f
	}
	return bankfiles.ReadSinapi(domain.Edition{
		Bank: "SINAPI", State: "MG", Month: "08/2026", Source: SinapiSource,
	}, bankfiles.SinapiFiles{Insumos: r[0], Composicoes: r[1], Estrutura: r[2]})
}

func loadSicro() (*Edition, error) {
	names := []string{
		"Equipamentos_sem_desoneracao", "Equipamentos_com_desoneracao",
		"Mao_de_Obra_sem_desoneracao", "Mao_de_Obra_com_desoneracao",
		"Materiais", "Composicoes_de_Custos",
	}
	var r [6]io.Reader
	for i, name := range names {
		f, err := files.Open(sicroPre + name + ".csv")
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r[i] = f
	}
	return bankfiles.ReadSicro(domain.Edition{
		Bank: "SICRO3", State: "AL", Month: "01/2024", Source: SicroSource,
	}, bankfiles.SicroFiles{
		EquipmentND: r[0], EquipmentD: r[1],
		LaborND: r[2], LaborD: r[3],
		Materials: r[4], Compositions: r[5],
	})
}
