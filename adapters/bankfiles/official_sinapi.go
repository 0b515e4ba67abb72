package bankfiles

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// SinapiPlaces is the number of decimal places of SINAPI prices and
// composition costs: Caixa publishes them in cents. Prices read from the
// official files are rounded half up to it, which changes nothing in a CSV
// (written with two places) and removes the binary floating-point tail of
// an XLSX cell; coefficients are kept as they are.
const SinapiPlaces = 2

// OfficialSinapi is the bank of Caixa's monthly SINAPI reports for one state,
// in the layout Caixa published them up to 2024, each as the original XLSX or
// as CSV (";", every field quoted, decimal comma, "." between thousands):
//
//   - SINAPI_Preco_Ref_Insumos_UF_AAAAMM_<Regime>: resource prices
//     (CODIGO, DESCRICAO DO INSUMO, UNIDADE DE MEDIDA, PRECO MEDIANO R$);
//   - SINAPI_Custo_Ref_Composicoes_Sintetico_UF_AAAAMM_<Regime>: composition
//     costs (CODIGO DA COMPOSICAO, DESCRICAO DA COMPOSICAO, UNIDADE, SIGLA
//     DA CLASSE, CUSTO TOTAL…);
//   - SINAPI_Custo_Ref_Composicoes_Analitico_UF_AAAAMM_<Regime>: the same
//     with the structure (TIPO ITEM, CODIGO ITEM, COEFICIENTE): a composition
//     row (TIPO ITEM empty) followed by a row per item (INSUMO or
//     COMPOSICAO).
//
// A file's regime is Importer.Regime when set, else the one its title rows
// state, else its name's (_Desonerado / _NaoDesonerado); a file that gives
// none is an error. A name that states a state and month (_PE_202410_) must
// state the edition's. What the title rows state (checkOwnWord: "MES DE
// COLETA: 10/2024", "LOCALIDADE: RECIFE", "DESONERADO") must agree with the
// name, the edition and Importer.Regime.
func OfficialSinapi() Bank {
	return Bank{
		Name:      "SINAPI",
		Publisher: "SINAPI/CAIXA (Caixa Econômica Federal / IBGE)",
		Formats:   []Format{officialAnalytic{}, officialSynthetic{}, officialInsumos{}},
	}
}

// SinapiRegimeFromName tells the regime of a SINAPI file from its name:
// desonerado for "_Desonerado" (or "com desoneração"), não desonerado for
// "_NaoDesonerado" (or "sem desoneração"); ok is false when the name says
// neither.
func SinapiRegimeFromName(path string) (r domain.Regime, ok bool) {
	n := strings.NewReplacer("_", "", "-", "", " ", "", ".", "").Replace(NormalizeName(filepath.Base(path)))
	switch {
	case strings.Contains(n, "NAODESONERADO") || strings.Contains(n, "SEMDESONERACAO"):
		return domain.NaoDesonerado, true
	case strings.Contains(n, "DESONERADO") || strings.Contains(n, "COMDESONERACAO"):
		return domain.Desonerado, true
	}
	return 0, false
}

// sinapiNamePattern finds the state and month in a file name:
// SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv.
var sinapiNamePattern = regexp.MustCompile(`(?:^|_)([A-Z]{2})_(\d{4})(\d{2})(?:_|\.|$)`)

// SinapiStateFromName returns the state (UF) a SINAPI per-state file's name
// states (SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv: PE), or "" when
// it states none.
func SinapiStateFromName(path string) string {
	m := sinapiNamePattern.FindStringSubmatch(strings.ToUpper(filepath.Base(path)))
	if m == nil || !domain.ValidState(m[1]) {
		return ""
	}
	return m[1]
}

// sinapiFile returns the regime of a SINAPI file and checks the state and
// month its name states, if any, against the edition's.
func sinapiFile(f *File) ([]domain.Regime, error) {
	base := strings.ToUpper(filepath.Base(f.Name))
	if m := sinapiNamePattern.FindStringSubmatch(base); m != nil && domain.ValidState(m[1]) {
		if month := m[3] + "/" + m[2]; m[1] != f.State || month != f.Month {
			return nil, f.Errorf(0, "the file name says %s %s; the import is for %s %s", m[1], month, f.State, f.Month)
		}
	}
	t, err := checkOwnWord(f, true)
	if err != nil {
		return nil, err
	}
	if f.Regime != nil {
		return []domain.Regime{*f.Regime}, nil
	}
	if t.Regime != nil { // the file's own word (checked against its name)
		return []domain.Regime{*t.Regime}, nil
	}
	r, ok := SinapiRegimeFromName(f.Name)
	if !ok {
		return nil, f.Errorf(0, "the file name tells no regime (…_Desonerado or …_NaoDesonerado): rename it or give --regime")
	}
	return []domain.Regime{r}, nil
}

// sinapiPrice reads a price or a cost, rounded to SinapiPlaces.
func sinapiPrice(f *File, row Row, col int, field string) (decimal.Decimal, error) {
	d, err := f.Decimal(row, col, field)
	if err != nil {
		return d, err
	}
	return domain.RoundHalfUp(d, SinapiPlaces), nil
}

// officialInsumos reads SINAPI_Preco_Ref_Insumos files.
type officialInsumos struct{}

func (officialInsumos) Name() string { return "SINAPI insumos" }

func (officialInsumos) Detect(h Header) bool {
	return h.Index("CODIGO") >= 0 && h.Prefix("DESCRICAO DO INSUMO") >= 0 && h.Prefix("PRECO MEDIANO") >= 0
}

func (officialInsumos) Read(f *File, b *Builder) error {
	regimes, err := sinapiFile(f)
	if err != nil {
		return err
	}
	col, err := findColumns(f, column{"CODIGO", false}, column{"DESCRICAO DO INSUMO", true}, column{"UNIDADE", true}, column{"PRECO MEDIANO", true})
	if err != nil {
		return err
	}
	class := f.Header.Prefix("CLASSIFICACAO")
	if class < 0 {
		class = f.Header.Prefix("TIPO DE INSUMO")
	}
	err = readRows(f, func(row Row) error {
		price, err := sinapiPrice(f, row, col[3], "PRECO MEDIANO")
		if err != nil {
			return err
		}
		desc := row.Cell(col[1])
		return b.AddResource(f, row.Line, regimes, ResourceRow{
			Code: row.Cell(col[0]), Description: desc, Unit: row.Cell(col[2]),
			Type: sinapiType(row.Cell(class), desc), Productive: price, Idle: price,
		})
	})
	if err != nil {
		return err
	}
	return checkFooter(f, "TOTAL DE INSUMOS")
}

// sinapiType is the resource type the classification column gives (files
// that have one), else the one SinapiResourceType infers from the
// description.
func sinapiType(class, description string) int {
	switch c := NormalizeName(class); {
	case c == "":
	case strings.HasPrefix(c, "EQUIPAMENTO"):
		return domain.TypeEquipment
	case strings.HasPrefix(c, "MAO DE OBRA"):
		return domain.TypeLabor
	case strings.HasPrefix(c, "MATERIA"):
		return domain.TypeMaterial
	case strings.HasPrefix(c, "SERVICO"):
		return domain.TypeServices
	}
	return SinapiResourceType(description)
}

// checkFooter checks a footer "<prefix> : N" against the rows read.
func checkFooter(f *File, prefix string) error {
	for _, r := range f.Footers() {
		text := ""
		for _, c := range r.Cells {
			text += c
		}
		name, count, ok := strings.Cut(NormalizeName(text), ":")
		if !ok || strings.TrimSpace(name) != prefix {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil {
			return f.Errorf(r.Line, "the footer %q does not end with a count", text)
		}
		if n != f.Rows() {
			return f.Errorf(r.Line, "the footer counts %d rows, the file has %d: is it truncated?", n, f.Rows())
		}
	}
	return nil
}

// officialSynthetic reads SINAPI_Custo_Ref_Composicoes_Sintetico files.
type officialSynthetic struct{}

func (officialSynthetic) Name() string { return "SINAPI composições (sintético)" }

func (officialSynthetic) Detect(h Header) bool {
	return h.Index("CODIGO DA COMPOSICAO") >= 0 && h.Index("CUSTO TOTAL") >= 0 && h.Index("TIPO ITEM") < 0
}

func (officialSynthetic) Read(f *File, b *Builder) error {
	regimes, err := sinapiFile(f)
	if err != nil {
		return err
	}
	col, err := findColumns(f, column{"CODIGO DA COMPOSICAO", false}, column{"DESCRICAO DA COMPOSICAO", true}, column{"UNIDADE", false}, column{"CUSTO TOTAL", false})
	if err != nil {
		return err
	}
	class := f.Header.Index("SIGLA DA CLASSE")
	return readRows(f, func(row Row) error {
		cost, err := sinapiPrice(f, row, col[3], "CUSTO TOTAL")
		if err != nil {
			return err
		}
		return b.AddComposition(f, row.Line, regimes, CompositionRow{
			Code: row.Cell(col[0]), Description: row.Cell(col[1]), Unit: row.Cell(col[2]),
			Class: row.Cell(class), Cost: cost,
		})
	})
}

// officialAnalytic reads SINAPI_Custo_Ref_Composicoes_Analitico files: each
// composition's row (TIPO ITEM empty; its cost, when the row has one, counts
// like the synthetic file's), then one row per item.
type officialAnalytic struct{}

func (officialAnalytic) Name() string { return "SINAPI composições (analítico)" }

func (officialAnalytic) Detect(h Header) bool {
	return h.Index("CODIGO DA COMPOSICAO") >= 0 && h.Index("TIPO ITEM") >= 0 &&
		(h.Index("CODIGO ITEM") >= 0 || h.Index("CODIGO DO ITEM") >= 0) && h.Prefix("COEFICIENTE") >= 0
}

func (officialAnalytic) Read(f *File, b *Builder) error {
	regimes, err := sinapiFile(f)
	if err != nil {
		return err
	}
	col, err := findColumns(f, column{"CODIGO DA COMPOSICAO", false}, column{"DESCRICAO DA COMPOSICAO", true}, column{"UNIDADE", false},
		column{"TIPO ITEM", false}, column{"COEFICIENTE", true})
	if err != nil {
		return err
	}
	item := f.Header.Index("CODIGO ITEM")
	if item < 0 {
		item = f.Header.Index("CODIGO DO ITEM")
	}
	class, cost := f.Header.Index("SIGLA DA CLASSE"), f.Header.Index("CUSTO TOTAL")
	current := ""
	return readRows(f, func(row Row) error {
		var err error
		code := row.Cell(col[0])
		kind := NormalizeName(row.Cell(col[3]))
		if kind == "" {
			if code == "" {
				return f.Errorf(row.Line, "CODIGO DA COMPOSICAO is empty")
			}
			current = code
			c := CompositionRow{Code: code, Description: row.Cell(col[1]), Unit: row.Cell(col[2]), Class: row.Cell(class)}
			var given []domain.Regime
			if row.Cell(cost) != "" {
				if c.Cost, err = sinapiPrice(f, row, cost, "CUSTO TOTAL"); err != nil {
					return err
				}
				given = regimes
			}
			return b.AddComposition(f, row.Line, given, c)
		}
		if code == "" {
			code = current
		}
		if code == "" {
			return f.Errorf(row.Line, "an item row comes before any composition")
		}
		var k domain.ItemKind
		switch kind {
		case "INSUMO":
			k = domain.KindResource
		case "COMPOSICAO":
			k = domain.KindComposition
		default:
			return f.Errorf(row.Line, "TIPO ITEM %q is neither INSUMO nor COMPOSICAO", row.Cell(col[3]))
		}
		coef, err := f.Decimal(row, col[4], "COEFICIENTE")
		if err != nil {
			return err
		}
		return b.AddItem(f, row.Line, code, domain.StructureItem{Kind: k, Code: row.Cell(item), Coefficient: coef})
	})
}
