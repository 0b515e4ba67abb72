package workbooktest

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Real is a workbook of the 08/2026 month made from the project's real
// SINAPI data, with two states priced and the other 25 columns blank:
//
//   - MG: the real MG 08/2026 subset package sample embeds (19 insumos and 8
//     compositions priced in both regimes, the structure of 5 of them),
//     every figure as published;
//   - PE: the real PE figures of 10/2024 (adapters/bankfiles/testdata/
//     sinapi-pe-202410, read by the per-state reader) for the same codes,
//     placed in the PE columns of this 08/2026 workbook. Composition costs
//     (CSD, CCD) are PE's published não desonerado and desonerado costs;
//     insumo prices (ICD) PE's desonerado prices. Only the desonerado
//     insumo file of PE exists, so ISD (não desonerado) carries PE's price
//     for materials, whose SINAPI price does not depend on the regime (the
//     MG data shows the same price in both for every material), and is
//     left blank for the labour insumos: those are priced in the
//     desonerado regime only in PE's edition. PE's costs do not recompute
//     from the 2026-08 structure (another month); they are what PE
//     published.
//
// It returns the workbook and the two editions the per-state readers give
// (the published figures), by state.
func Real(peDir string) (Workbook, map[string]*bankfiles.Edition, error) {
	eds, err := sample.Load()
	if err != nil {
		return Workbook{}, nil, err
	}
	mg := &eds[0]
	im, err := bankfiles.NewImporter(bankfiles.OfficialSinapi(), "PE", "10/2024")
	if err != nil {
		return Workbook{}, nil, err
	}
	for _, name := range []string{
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.csv",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv",
	} {
		if _, err := im.AddFile(context.Background(), filepath.Join(peDir, name)); err != nil {
			return Workbook{}, nil, err
		}
	}
	peEds, err := im.Editions()
	if err != nil {
		return Workbook{}, nil, err
	}
	peRes := map[string]*domain.BankResource{}
	peCom := map[string]*domain.BankComposition{}
	for _, e := range peEds {
		for _, r := range e.Resources {
			peRes[r.Code] = r
		}
		for _, c := range e.Compositions {
			peCom[c.Code] = c
		}
	}
	wb := Workbook{Month: "08/2026"}
	pe := &bankfiles.Edition{Edition: domain.Edition{Bank: "SINAPI", State: "PE", Month: "08/2026"}}
	resByCode := map[string]*domain.BankResource{}
	for _, r := range mg.Resources {
		resByCode[r.Code] = r
		in := Insumo{Code: r.Code, Description: r.Description, Unit: r.Unit, Class: classOf(r.Type),
			Prices: map[string][2]string{"MG": {r.Prices.PND.StringFixed(2), r.Prices.PD.StringFixed(2)}}}
		if r.Type == domain.TypeMaterial && !r.Prices.PND.Equal(r.Prices.PD) {
			return Workbook{}, nil, fmt.Errorf("MG material %s costs %s / %s: material prices differ by regime", r.Code, r.Prices.PND, r.Prices.PD)
		}
		if p := peRes[r.Code]; p != nil {
			d := p.Prices.PD.StringFixed(2)
			nd := ""
			pr := *r
			pr.Prices = domain.PriceLine{PND: p.Prices.PD, PD: p.Prices.PD, PNDI: p.Prices.PD, PDI: p.Prices.PD}
			if r.Type == domain.TypeMaterial {
				nd = d
			} else {
				pr.Prices.PND, pr.Prices.PNDI = decimal.Zero, decimal.Zero
				pr.Regimes = []domain.Regime{domain.Desonerado}
			}
			pe.Resources = append(pe.Resources, &pr)
			in.Prices["PE"] = [2]string{nd, d}
		}
		wb.Insumos = append(wb.Insumos, in)
	}
	comByCode := map[string]*domain.BankComposition{}
	for _, c := range mg.Compositions {
		comByCode[c.Code] = c
	}
	for _, c := range mg.Compositions {
		wc := Composition{Group: "Alvenaria Estrutural", Code: c.Code, Description: c.Description, Unit: c.Unit,
			Costs: map[string][2]string{"MG": {c.Cost.PND.StringFixed(2), c.Cost.PD.StringFixed(2)}}}
		for _, it := range c.Items {
			item := Item{Kind: "INSUMO", Code: it.Code, Coefficient: it.Coefficient.String()}
			if it.Kind == domain.KindComposition {
				item.Kind = "COMPOSICAO"
				if s := comByCode[it.Code]; s != nil {
					item.Description, item.Unit = s.Description, s.Unit
				}
			} else if r := resByCode[it.Code]; r != nil {
				item.Description, item.Unit = r.Description, r.Unit
			}
			wc.Items = append(wc.Items, item)
		}
		if p := peCom[c.Code]; p != nil {
			wc.Costs["PE"] = [2]string{p.Cost.PND.StringFixed(2), p.Cost.PD.StringFixed(2)}
			pc := *c
			pc.Cost = p.Cost
			pe.Compositions = append(pe.Compositions, &pc)
		}
		wb.Compositions = append(wb.Compositions, wc)
	}
	sort.Slice(pe.Resources, func(i, j int) bool { return pe.Resources[i].Code < pe.Resources[j].Code })
	sort.Slice(pe.Compositions, func(i, j int) bool { return pe.Compositions[i].Code < pe.Compositions[j].Code })
	return wb, map[string]*bankfiles.Edition{"MG": mg, "PE": pe}, nil
}

// classOf is the Classificação of a resource type.
func classOf(t int) string {
	switch t {
	case domain.TypeLabor:
		return "MÃO DE OBRA"
	case domain.TypeEquipment:
		return "EQUIPAMENTO"
	case domain.TypeServices:
		return "SERVIÇOS"
	}
	return "MATERIAL"
}
