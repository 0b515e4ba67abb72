package bankfiles

import (
	"regexp"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// OfficialSicro is the bank of DNIT's SICRO "Relatório Sintético" reports
// for one state and month, each as the original XLSX (or a CSV of its
// cells):
//
//   - Equipamentos (Código, Descrição, …, Custo Produtivo, Custo
//     Improdutivo), one report per regime: equipment, unit "h", PND/PD the
//     productive and PNDI/PDI the idle hourly cost;
//   - Mão de Obra (Código, Descrição, Unidade, Salário, Encargos, Custo),
//     one per regime: labour at its cost;
//   - Materiais (Código, Descrição, Unidade, Preço Unitário): materials;
//   - Composições de Custos (Código, Descrição do Serviço, Unidade, Custo
//     Unitário): the compositions' unit costs.
//
// The title rows above the header must name the edition's state and month
// ("Alagoas - Janeiro/2024"), and give the report's regime ("Com
// desoneração", "Sem desoneração"); a report that names none is sem
// desoneração, except the materials report, whose prices do not depend on
// the regime (DNIT publishes one) and count in both, as ReadSicro reads them.
// Figures are rounded half up as ReadSicro does: resource prices to
// SicroPricePlaces, composition costs to SicroCostPlaces. A material or
// composition whose price cell is "-" (not priced by DNIT) is left out, as
// ReadSicro does. Codes are kept as text, leading zeros included (0307731).
func OfficialSicro() Bank {
	return Bank{
		Name:      "SICRO3",
		Publisher: "SICRO/DNIT",
		Formats:   []Format{officialEquipment{}, officialLabor{}, officialMaterials{}, officialCompositions{}},
	}
}

// sicroMonthPattern finds the month and year a title states: "JANEIRO/2024",
// "JAN/2024", "JANEIRO DE 2024".
var sicroMonthPattern = regexp.MustCompile(`\b(JAN|FEV|MAR|ABR|MAI|JUN|JUL|AGO|SET|OUT|NOV|DEZ)[A-Z]*\s*(?:/|DE)?\s*((?:19|20|21)\d\d)\b`)

var sicroMonths = map[string]string{"JAN": "01", "FEV": "02", "MAR": "03", "ABR": "04", "MAI": "05", "JUN": "06",
	"JUL": "07", "AGO": "08", "SET": "09", "OUT": "10", "NOV": "11", "DEZ": "12"}

// sicroTitle checks that a report's title rows name the edition's state and
// month, and returns the regime they state; stated is false when they state
// none.
func sicroTitle(f *File) (r domain.Regime, stated bool, err error) {
	if _, err := checkOwnWord(f, false); err != nil {
		return 0, false, err
	}
	title := f.TitleText()
	state := titleState(title)
	month := ""
	if m := sicroMonthPattern.FindStringSubmatch(title); m != nil {
		month = sicroMonths[m[1]] + "/" + m[2]
	}
	if state != f.State || month != f.Month {
		said := "no state and month"
		if state != "" || month != "" {
			said = strings.TrimSpace(state + " " + month)
		}
		return 0, false, f.Errorf(0, "the title rows (%q) say %s; the import is for %s %s",
			titleCells(f), said, f.State, f.Month)
	}
	switch {
	case strings.Contains(title, "COM DESONERACAO"):
		return domain.Desonerado, true, nil
	case strings.Contains(title, "SEM DESONERACAO"):
		return domain.NaoDesonerado, true, nil
	}
	return domain.NaoDesonerado, false, nil
}

// titleState returns the state (UF) whose name a title holds as whole words,
// the longest when several do ("Mato Grosso do Sul", not "Mato Grosso"), or
// "" when none does.
func titleState(title string) string {
	best, bestLen := "", 0
	for uf, name := range domain.States {
		n := NormalizeName(name)
		if len(n) > bestLen && containsWord(title, n) {
			best, bestLen = uf, len(n)
		}
	}
	return best
}

// containsWord reports whether s holds w with no letter on either side.
func containsWord(s, w string) bool {
	letter := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80 }
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !letter(s[j-1])) && (end == len(s) || !letter(s[end])) {
			return true
		}
		i = j + 1
	}
}

// titleCells returns the title rows' text as the file has it, for messages.
func titleCells(f *File) string {
	var parts []string
	for _, r := range f.Title {
		for _, c := range r.Cells {
			if c != "" {
				parts = append(parts, strings.Join(strings.Fields(c), " "))
			}
		}
	}
	return strings.Join(parts, " | ")
}

// sicroRegimes is the regime of a report that states one or defaults to
// sem desoneração.
func sicroRegimes(f *File) ([]domain.Regime, error) {
	r, _, err := sicroTitle(f)
	if err != nil {
		return nil, err
	}
	return []domain.Regime{r}, nil
}

// sicroFigure reads a figure and rounds it half up to places, as ReadSicro.
func sicroFigure(f *File, row Row, col int, field string, places int32) (decimal.Decimal, error) {
	d, err := f.Decimal(row, col, field)
	if err != nil {
		return d, err
	}
	return domain.RoundHalfUp(d, places), nil
}

// column names a column a report reads: by its whole name, or by the
// start of it (prefix).
type column struct {
	name   string
	prefix bool
}

// findColumns finds the columns a report reads.
func findColumns(f *File, cols ...column) ([]int, error) {
	out := make([]int, len(cols))
	for i, c := range cols {
		var err error
		if out[i], err = f.Column(c.name, c.prefix); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// columns finds the columns a report reads, by the start of their names.
func columns(f *File, names ...string) ([]int, error) {
	cols := make([]column, len(names))
	for i, n := range names {
		cols[i] = column{n, true}
	}
	return findColumns(f, cols...)
}

// readRows calls fn on each data row of f.
func readRows(f *File, fn func(Row) error) error {
	for {
		row, ok, err := f.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// officialEquipment reads the Relatório Sintético de Equipamentos.
type officialEquipment struct{}

func (officialEquipment) Name() string { return "SICRO equipamentos" }

func (officialEquipment) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("CUSTO PRODUTIVO") >= 0 && h.Prefix("CUSTO IMPRODUTIVO") >= 0
}

func (officialEquipment) Read(f *File, b *Builder) error {
	regimes, err := sicroRegimes(f)
	if err != nil {
		return err
	}
	col, err := columns(f, "CODIGO", "DESCRICAO", "CUSTO PRODUTIVO", "CUSTO IMPRODUTIVO")
	if err != nil {
		return err
	}
	return readRows(f, func(row Row) error {
		cp, err := sicroFigure(f, row, col[2], "Custo Produtivo", SicroPricePlaces)
		if err != nil {
			return err
		}
		ci, err := sicroFigure(f, row, col[3], "Custo Improdutivo", SicroPricePlaces)
		if err != nil {
			return err
		}
		return b.AddResource(f, row.Line, regimes, ResourceRow{
			Code: row.Cell(col[0]), Description: row.Cell(col[1]), Unit: "h", Type: domain.TypeEquipment,
			Productive: cp, Idle: ci,
		})
	})
}

// officialLabor reads the Relatório Sintético de Mão de Obra.
type officialLabor struct{}

func (officialLabor) Name() string { return "SICRO mão de obra" }

func (officialLabor) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("SALARIO") >= 0 && h.Prefix("CUSTO") >= 0 && h.Prefix("UNIDADE") >= 0
}

func (officialLabor) Read(f *File, b *Builder) error {
	regimes, err := sicroRegimes(f)
	if err != nil {
		return err
	}
	return sicroPriced(f, b, regimes, domain.TypeLabor, "CUSTO", "Custo", false)
}

// sicroPriced reads the rows of a report of resources of a type with one
// price each (labor, materials): CODIGO, DESCRICAO, UNIDADE and the price
// column (priceCol; field in errors), the price being both the productive
// and the idle one. With skipUnpriced, a row whose price says the item has
// none is skipped.
func sicroPriced(f *File, b *Builder, regimes []domain.Regime, typ int, priceCol, field string, skipUnpriced bool) error {
	col, err := columns(f, "CODIGO", "DESCRICAO", "UNIDADE", priceCol)
	if err != nil {
		return err
	}
	return readRows(f, func(row Row) error {
		if skipUnpriced && row.Cell(col[3]) == unpriced {
			f.Skip()
			return nil
		}
		p, err := sicroFigure(f, row, col[3], field, SicroPricePlaces)
		if err != nil {
			return err
		}
		return b.AddResource(f, row.Line, regimes, ResourceRow{
			Code: row.Cell(col[0]), Description: row.Cell(col[1]), Unit: row.Cell(col[2]), Type: typ,
			Productive: p, Idle: p,
		})
	})
}

// officialMaterials reads the Relatório Sintético de Materiais.
type officialMaterials struct{}

func (officialMaterials) Name() string { return "SICRO materiais" }

func (officialMaterials) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("PRECO UNITARIO") >= 0
}

func (officialMaterials) Read(f *File, b *Builder) error {
	r, stated, err := sicroTitle(f)
	if err != nil {
		return err
	}
	regimes := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	if stated {
		regimes = []domain.Regime{r}
	}
	return sicroPriced(f, b, regimes, domain.TypeMaterial, "PRECO UNITARIO", "Preço Unitário", true)
}

// officialCompositions reads the Relatório Sintético de Composições de Custos.
type officialCompositions struct{}

func (officialCompositions) Name() string { return "SICRO composições de custos" }

func (officialCompositions) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("CUSTO UNITARIO") >= 0
}

func (officialCompositions) Read(f *File, b *Builder) error {
	regimes, err := sicroRegimes(f)
	if err != nil {
		return err
	}
	col, err := columns(f, "CODIGO", "DESCRICAO", "UNIDADE", "CUSTO UNITARIO")
	if err != nil {
		return err
	}
	return readRows(f, func(row Row) error {
		if row.Cell(col[3]) == unpriced {
			f.Skip()
			return nil
		}
		c, err := sicroFigure(f, row, col[3], "Custo Unitário", SicroCostPlaces)
		if err != nil {
			return err
		}
		return b.AddComposition(f, row.Line, regimes, CompositionRow{
			Code: row.Cell(col[0]), Description: row.Cell(col[1]), Unit: row.Cell(col[2]), Cost: c,
		})
	})
}
