package bankfiles

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// SinapiFiles are the files of one SINAPI edition in the normalised layout
// of the open-data repositories (one state, one month).
type SinapiFiles struct {
	// Insumos has the columns codigo, descricao, unidade, preco_mediano
	// (dot decimal), mes_referencia (YYYY-MM) and desonerado (False for não
	// desonerado, True for desonerado): one row per resource and regime.
	Insumos io.Reader
	// Composicoes has the same columns, one row per composition and regime,
	// and may add `classe`: the composition's SINAPI class (SIGLA DA
	// CLASSE, as ASTU or PARE), kept as the composition's class.
	Composicoes io.Reader
	// Estrutura is a JSON array of {"c": composition, "t": "I" (insumo) or
	// "C" (composição), "i": item code, "k": coefficient}. It may be nil when
	// no structure is known.
	Estrutura io.Reader
}

// File names used in error messages.
const (
	sinapiInsumos     = "insumos"
	sinapiComposicoes = "composicoes"
	sinapiEstrutura   = "estrutura"
)

// The columns of the SINAPI price files.
var sinapiColumns = []string{"codigo", "descricao", "unidade", "preco_mediano", "mes_referencia", "desonerado"}

// SinapiResourceType infers the resource type of a SINAPI insumo from its
// description, since the normalised layout has no type column: labour when
// the description says "(HORISTA)" (paid by the hour) or "(MENSALISTA)" (paid
// by the month), as Caixa names every labour insumo, material otherwise.
// Equipment insumos are therefore read as material; their price is right, only
// the type (used by reports that group by type) is not.
func SinapiResourceType(description string) int {
	d := strings.ToUpper(description)
	if strings.Contains(d, "(HORISTA)") || strings.Contains(d, "(MENSALISTA)") {
		return domain.TypeLabor
	}
	return domain.TypeMaterial
}

// ReadSinapi reads one SINAPI edition. meta names the edition (Bank, State,
// Month, Region, Source); Regimes and the counts are filled from the files.
// Prices are kept exactly as published (no rounding). Every code must have a
// price in every regime the file has, and the description and unit must be
// the same in both regimes.
func ReadSinapi(meta domain.Edition, f SinapiFiles) (*Edition, error) {
	if err := checkMeta(meta); err != nil {
		return nil, err
	}
	ins, err := readSinapiPrices(sinapiInsumos, f.Insumos, meta.Month)
	if err != nil {
		return nil, err
	}
	comps, err := readSinapiPrices(sinapiComposicoes, f.Composicoes, meta.Month)
	if err != nil {
		return nil, err
	}
	out := &Edition{Edition: meta}
	out.Edition.Regimes = nil
	for _, r := range ins.regimes {
		out.Edition.AddRegime(r)
	}
	for _, r := range comps.regimes {
		out.Edition.AddRegime(r)
	}
	for _, code := range ins.order {
		row := ins.rows[code]
		out.Resources = append(out.Resources, &domain.BankResource{
			Code:        code,
			Description: row.description,
			Unit:        row.unit,
			Type:        SinapiResourceType(row.description),
			Prices: domain.PriceLine{
				PND: row.price[domain.NaoDesonerado], PNDI: row.price[domain.NaoDesonerado],
				PD: row.price[domain.Desonerado], PDI: row.price[domain.Desonerado],
			},
		})
	}
	byCode := make(map[string]*domain.BankComposition, len(comps.order))
	for _, code := range comps.order {
		row := comps.rows[code]
		c := &domain.BankComposition{
			Code:        code,
			Description: row.description,
			Unit:        row.unit,
			Class:       row.class,
			Cost:        domain.UnitPrice{PND: row.price[domain.NaoDesonerado], PD: row.price[domain.Desonerado]},
		}
		byCode[code] = c
		out.Compositions = append(out.Compositions, c)
	}
	if f.Estrutura != nil {
		if err := readSinapiStructure(f.Estrutura, byCode); err != nil {
			return nil, err
		}
	}
	out.Edition.Resources = len(out.Resources)
	out.Edition.Compositions = len(out.Compositions)
	for _, c := range out.Compositions {
		if len(c.Items) > 0 {
			out.Edition.Structures++
		}
	}
	return out, nil
}

// checkMeta checks the fields of the edition the caller names.
func checkMeta(meta domain.Edition) error {
	if meta.Bank == "" || meta.Bank != domain.NormalizeBank(meta.Bank) {
		return badFile("edition", 0, "bank %q must be given in upper case", meta.Bank)
	}
	if !domain.ValidState(meta.State) {
		return badFile("edition", 0, "state %q is not a state code", meta.State)
	}
	if !domain.ValidMonth(meta.Month) {
		return badFile("edition", 0, "month %q is not MM/YYYY", meta.Month)
	}
	return nil
}

// sinapiRow is one code of a SINAPI price file with its price per regime.
type sinapiRow struct {
	line        int
	description string
	unit        string
	class       string // the optional classe column
	price       [2]decimal.Decimal
	has         [2]bool
}

type sinapiPrices struct {
	order   []string
	rows    map[string]*sinapiRow
	regimes []domain.Regime
}

func readSinapiPrices(file string, r io.Reader, month string) (*sinapiPrices, error) {
	recs, err := readCSV(file, r)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, badFile(file, 0, "file is empty")
	}
	col := map[string]int{}
	for i, h := range recs[0].fields {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, name := range sinapiColumns {
		if _, ok := col[name]; !ok {
			return nil, badFile(file, recs[0].line, "no column %q in the header", name)
		}
	}
	wantMonth := month[3:] + "-" + month[:2] // MM/YYYY -> YYYY-MM
	out := &sinapiPrices{rows: map[string]*sinapiRow{}}
	var seen [2]bool
	for _, rec := range recs[1:] {
		if blank(rec.fields) {
			continue
		}
		get := func(name string) string {
			if i := col[name]; i < len(rec.fields) {
				return strings.TrimSpace(rec.fields[i])
			}
			return ""
		}
		code := get("codigo")
		if code == "" {
			return nil, badFile(file, rec.line, "codigo is empty")
		}
		if m := get("mes_referencia"); m != wantMonth {
			return nil, badFile(file, rec.line, "mes_referencia %q is not the edition's month %s", m, wantMonth)
		}
		var reg domain.Regime
		switch strings.ToLower(get("desonerado")) {
		case "false":
			reg = domain.NaoDesonerado
		case "true":
			reg = domain.Desonerado
		default:
			return nil, badFile(file, rec.line, "desonerado %q is neither True nor False", get("desonerado"))
		}
		price, err := parseDecimal(file, rec.line, "preco_mediano", get("preco_mediano"))
		if err != nil {
			return nil, err
		}
		class := ""
		if _, ok := col["classe"]; ok {
			class = strings.ToUpper(get("classe"))
			if class != "" && !domain.ValidCompositionClass(class) {
				return nil, badFile(file, rec.line, "classe %q is not a SINAPI composition class", class)
			}
		}
		row := out.rows[code]
		if row == nil {
			row = &sinapiRow{line: rec.line, description: get("descricao"), unit: get("unidade"), class: class}
			out.rows[code] = row
			out.order = append(out.order, code)
		} else if !sameText(row.description, get("descricao")) || !sameText(row.unit, get("unidade")) || row.class != class {
			return nil, badFile(file, rec.line, "code %s has another description, unit or classe than on line %d", code, row.line)
		}
		if row.has[reg] {
			return nil, badFile(file, rec.line, "code %s has a second %s price", code, reg)
		}
		row.price[reg], row.has[reg] = price, true
		seen[reg] = true
	}
	for _, reg := range []domain.Regime{domain.NaoDesonerado, domain.Desonerado} {
		if !seen[reg] {
			continue
		}
		out.regimes = append(out.regimes, reg)
		for _, code := range out.order {
			if row := out.rows[code]; !row.has[reg] {
				return nil, badFile(file, row.line, "code %s has no %s price", code, reg)
			}
		}
	}
	return out, nil
}

// readSinapiStructure reads the estrutura JSON into the compositions' items.
// Coefficients are decoded as JSON number text (json.Decoder.UseNumber) and
// parsed exactly; a coefficient written as a string is refused.
func readSinapiStructure(r io.Reader, byCode map[string]*domain.BankComposition) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var items []map[string]any
	if err := dec.Decode(&items); err != nil {
		return badFile(sinapiEstrutura, 0, "not a JSON array of items: %v", err)
	}
	for i, it := range items {
		text := func(key string) (string, error) {
			s, ok := it[key].(string)
			if !ok || strings.TrimSpace(s) == "" {
				return "", badFile(sinapiEstrutura, 0, "item %d: %q must be a non-empty string", i, key)
			}
			return strings.TrimSpace(s), nil
		}
		c, err := text("c")
		if err != nil {
			return err
		}
		t, err := text("t")
		if err != nil {
			return err
		}
		code, err := text("i")
		if err != nil {
			return err
		}
		var kind domain.ItemKind
		switch t {
		case "I":
			kind = domain.KindResource
		case "C":
			kind = domain.KindComposition
		default:
			return badFile(sinapiEstrutura, 0, "item %d: t %q is neither I nor C", i, t)
		}
		num, ok := it["k"].(json.Number)
		if !ok {
			return badFile(sinapiEstrutura, 0, "item %d: k must be a JSON number", i)
		}
		k, err := parseDecimal(sinapiEstrutura, 0, "k", num.String())
		if err != nil {
			return err
		}
		comp := byCode[c]
		if comp == nil {
			return badFile(sinapiEstrutura, 0, "item %d: composition %s has no price in the composicoes file", i, c)
		}
		comp.Items = append(comp.Items, domain.StructureItem{Kind: kind, Code: code, Coefficient: k})
	}
	return nil
}
