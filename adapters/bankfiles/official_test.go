package bankfiles_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/domain"
)

var (
	nd  = domain.NaoDesonerado
	des = domain.Desonerado
	dec = domain.Dec
)

// ignoreImport ignores what changes from one import to the next.
var ignoreImport = cmpopts.IgnoreFields(domain.Edition{}, "ImportedAt", "Source")

// decimals compares decimals by value.
var decimals = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

// wantResource is a resource as the files publish it.
type wantResource struct {
	code, unit string
	typ        int
	desc       string // the description starts with this
	prices     domain.PriceLine
}

func checkResources(t *testing.T, db *testDB, key string, want []wantResource) {
	t.Helper()
	for _, w := range want {
		got := db.resource(t, key, w.code)
		if got == nil {
			t.Errorf("%s: resource %s is missing", key, w.code)
			continue
		}
		if got.Unit != w.unit || got.Type != w.typ || !strings.HasPrefix(got.Description, w.desc) {
			t.Errorf("%s: resource %s = %q %q type %d, want %q… %q type %d", key, w.code,
				got.Description, got.Unit, got.Type, w.desc, w.unit, w.typ)
		}
		if d := cmp.Diff(w.prices, got.Prices, decimals); d != "" {
			t.Errorf("%s: resource %s prices (-want +got):\n%s", key, w.code, d)
		}
	}
}

// wantComposition is a composition as the files publish it.
type wantComposition struct {
	code, unit, class string
	cost              domain.UnitPrice
}

func checkCompositions(t *testing.T, db *testDB, key string, want []wantComposition) {
	t.Helper()
	for _, w := range want {
		got := db.composition(t, key, w.code)
		if got == nil {
			t.Errorf("%s: composition %s is missing", key, w.code)
			continue
		}
		if got.Unit != w.unit || got.Class != w.class {
			t.Errorf("%s: composition %s unit %q class %q, want %q %q", key, w.code, got.Unit, got.Class, w.unit, w.class)
		}
		if d := cmp.Diff(w.cost, got.Cost, decimals); d != "" {
			t.Errorf("%s: composition %s cost (-want +got):\n%s", key, w.code, d)
		}
	}
}

// The whole SINAPI PE 10/2024 set: the insumos file (desonerado only, the
// only one the source has) and the synthetic files of both regimes.
func TestImportSinapiPE(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "c.db"))
	im := mustImport(t, db, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...)

	if d := cmp.Diff([]bankfiles.RegimeCount{{Regime: nd, Compositions: 7737}, {Regime: des, Resources: 4811, Compositions: 7737}},
		im.Counts()); d != "" {
		t.Errorf("counts (-want +got):\n%s", d)
	}
	var rows []int
	for _, f := range im.Files() {
		rows = append(rows, f.Rows)
	}
	if d := cmp.Diff([]int{4811, 7737, 7737}, rows); d != "" {
		t.Errorf("rows per file (-want +got):\n%s", d)
	}
	// Caixa's CSV files have no title rows above their header.
	want := []*domain.Edition{{Bank: "SINAPI", State: "PE", Month: "10/2024", Regimes: []domain.Regime{nd, des},
		Resources: 4811, Compositions: 7737, Files: fileRecords(t, func(string) []string { return nil }, peFiles...)}}
	if d := cmp.Diff(want, db.editions(t), ignoreImport); d != "" {
		t.Errorf("editions (-want +got):\n%s", d)
	}
	if src := db.edition(t, peKey).Source; !strings.HasPrefix(src, "SINAPI/CAIXA") || !strings.Contains(src, filepath.Base(peInsumos)) {
		t.Errorf("source = %q", src)
	}

	// Prices as the files print them; the insumos file is desonerado only,
	// so the não desonerado prices stay zero (not imported).
	material := func(p string) domain.PriceLine { return domain.PriceLine{PD: dec(p), PDI: dec(p)} }
	checkResources(t, db, peKey, []wantResource{
		{"38605", "UN", domain.TypeMaterial, "ABERTURA PARA ENCAIXE DE CUBA OU LAVATORIO", material("159.92")},
		{"11270", "UN", domain.TypeMaterial, "ABRACADEIRA DE LATAO PARA FIXACAO DE CABO PARA-RAIO", material("4.05")},
		{"412", "UN", domain.TypeMaterial, "ABRACADEIRA DE NYLON PARA AMARRACAO DE CABOS", material("1.18")},
		{"41096", "MES", domain.TypeLabor, "VIGIA DIURNO (MENSALISTA)", material("2447.25")},
	})
	checkCompositions(t, db, peKey, []wantComposition{
		{"97141", "M", "ASTU", domain.UnitPrice{PND: dec("5.03"), PD: dec("4.68")}},
		{"89282", "M2", "PARE", domain.UnitPrice{PND: dec("64.63"), PD: dec("61.72")}},
		{"88309", "H", "SEDI", domain.UnitPrice{PND: dec("26.50"), PD: dec("23.52")}},
		{"101458", "MES", "SEDI", domain.UnitPrice{PND: dec("4576.75"), PD: dec("4068.69")}},
	})
	if r := db.resource(t, peKey, "41096"); r.Description != "VIGIA DIURNO (MENSALISTA)" {
		t.Errorf("description %q keeps its padding", r.Description)
	}

	// Every figure: the sums of each file's column, computed apart with
	// Python's decimal module, and the labour count (descriptions with
	// "(HORISTA)" or "(MENSALISTA)").
	var insumos, costD, costND decimal.Decimal
	labour := 0
	for _, e := range parse(t, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...) {
		for _, r := range e.Resources {
			insumos = insumos.Add(r.Prices.PD)
			if r.Type == domain.TypeLabor {
				labour++
			}
		}
		for _, c := range e.Compositions {
			costD, costND = costD.Add(c.Cost.PD), costND.Add(c.Cost.PND)
		}
	}
	for _, s := range []struct {
		name      string
		got, want decimal.Decimal
	}{{"insumos", insumos, dec("157409694.94")}, {"costs desonerado", costD, dec("5527368.36")},
		{"costs não desonerado", costND, dec("5729579.89")}} {
		if !s.got.Equal(s.want) {
			t.Errorf("sum of %s = %s, want %s", s.name, s.got, s.want)
		}
	}
	if labour != 183 {
		t.Errorf("%d labour insumos, want 183", labour)
	}
}

// Importing one regime, then the other, fills both; importing again
// changes nothing.
func TestImportSinapiRegimeByRegimeAndAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := openDB(t, filepath.Join(dir, "a.db"))
	mustImport(t, a, bankfiles.OfficialSinapi(), "PE", "10/2024", peSinteticoND)
	e := a.edition(t, peKey)
	if d := cmp.Diff([]domain.Regime{nd}, e.Regimes); d != "" || e.Compositions != 7737 || e.Resources != 0 {
		t.Errorf("after the não desonerado file: %+v", e)
	}
	checkCompositions(t, a, peKey, []wantComposition{{"97141", "M", "ASTU", domain.UnitPrice{PND: dec("5.03")}}})
	mustImport(t, a, bankfiles.OfficialSinapi(), "PE", "10/2024", peInsumos, peSinteticoD)
	checkCompositions(t, a, peKey, []wantComposition{{"97141", "M", "ASTU", domain.UnitPrice{PND: dec("5.03"), PD: dec("4.68")}}})

	b := openDB(t, filepath.Join(dir, "b.db"))
	mustImport(t, b, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...)
	first := b.editions(t)
	if d := cmp.Diff(first, a.editions(t), ignoreImport); d != "" {
		t.Errorf("regime by regime differs from all at once (-all +by regime):\n%s", d)
	}
	mustImport(t, b, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...)
	if d := cmp.Diff(first, b.editions(t), cmpopts.IgnoreFields(domain.Edition{}, "ImportedAt")); d != "" {
		t.Errorf("importing again changed the edition (-first +again):\n%s", d)
	}
	// Every record is the same in all three imports.
	for _, ed := range parse(t, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...) {
		for _, r := range ed.Resources {
			if d := cmp.Diff(b.resource(t, peKey, r.Code), a.resource(t, peKey, r.Code), decimals); d != "" {
				t.Fatalf("resource %s (-all +by regime):\n%s", r.Code, d)
			}
		}
		for _, c := range ed.Compositions {
			if d := cmp.Diff(b.composition(t, peKey, c.Code), a.composition(t, peKey, c.Code), decimals); d != "" {
				t.Fatalf("composition %s (-all +by regime):\n%s", c.Code, d)
			}
		}
	}
}

// The six SICRO AL 01/2024 reports, as DNIT publishes them (XLSX).
func TestImportSicroAL(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "c.db"))
	im := mustImport(t, db, bankfiles.OfficialSicro(), "AL", "01/2024", alFiles...)

	// 531 equipment rows list 509 codes: 22 tractor units repeat, with the
	// same figures, under each combination that uses them. 69 of the 1,655
	// materials have no price ("-") and are left out. The compositions
	// report states no regime: sem desoneração.
	type file struct {
		Name                    string
		Rows, Skipped, Repeated int
		Regimes                 []domain.Regime
	}
	var files []file
	for _, f := range im.Files() {
		files = append(files, file{filepath.Base(f.Name), f.Rows, f.Skipped, f.Repeated, f.Regimes})
	}
	wantFiles := []file{
		{filepath.Base(alEquipmentND), 531, 0, 22, []domain.Regime{nd}},
		{filepath.Base(alEquipmentD), 531, 0, 22, []domain.Regime{des}},
		{filepath.Base(alLaborND), 101, 0, 0, []domain.Regime{nd}},
		{filepath.Base(alLaborD), 101, 0, 0, []domain.Regime{des}},
		{filepath.Base(alMaterials), 1655, 69, 0, []domain.Regime{nd, des}},
		{filepath.Base(alCompositions), 6368, 0, 0, []domain.Regime{nd}},
	}
	if d := cmp.Diff(wantFiles, files); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	const resources = 509 + 101 + 1586
	if d := cmp.Diff([]bankfiles.RegimeCount{{Regime: nd, Resources: resources, Compositions: 6368}, {Regime: des, Resources: resources}},
		im.Counts()); d != "" {
		t.Errorf("counts (-want +got):\n%s", d)
	}
	// The publisher's title rows, as each report writes them.
	titles := func(name string) []string {
		t := []string{"CGCIT SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO DNIT", "Alagoas - Janeiro/2024"}
		switch {
		case strings.Contains(name, "Equipamentos_com"):
			t[1] += " - Com desoneração"
		case strings.Contains(name, "Mao_de_Obra_com"):
			t = append(t, "Com desoneração")
		case strings.Contains(name, "Mao_de_Obra_sem"):
			t = append(t, "Sem desoneração")
		}
		return t
	}
	want := []*domain.Edition{{Bank: "SICRO3", State: "AL", Month: "01/2024", Regimes: []domain.Regime{nd, des},
		Resources: resources, Compositions: 6368, Files: fileRecords(t, titles, alFiles...)}}
	if d := cmp.Diff(want, db.editions(t), ignoreImport); d != "" {
		t.Errorf("editions (-want +got):\n%s", d)
	}
	types := map[int]int{}
	for _, e := range parse(t, bankfiles.OfficialSicro(), "AL", "01/2024", alFiles...) {
		for _, r := range e.Resources {
			types[r.Type]++
		}
	}
	if d := cmp.Diff(map[int]int{domain.TypeEquipment: 509, domain.TypeLabor: 101, domain.TypeMaterial: 1586}, types); d != "" {
		t.Errorf("resources per type (-want +got):\n%s", d)
	}

	all := func(p string) domain.PriceLine {
		return domain.PriceLine{PND: dec(p), PD: dec(p), PNDI: dec(p), PDI: dec(p)}
	}
	checkResources(t, db, alKey, []wantResource{
		// Equipment whose operator's labour differs by regime.
		{"E9009", "h", domain.TypeEquipment, "Embarcação rebocadora - 268 kW", domain.PriceLine{
			PND: dec("425.0582"), PNDI: dec("146.2777"), PD: dec("409.9229"), PDI: dec("131.1424")}},
		{"E9001", "h", domain.TypeEquipment, "Conjunto vibratório para tubos de concreto", domain.PriceLine{
			PND: dec("18.1827"), PNDI: dec("11.3001"), PD: dec("18.1827"), PDI: dec("11.3001")}},
		{"A9335", "h", domain.TypeEquipment, "Cavalo mecânico estradeiro 6 x 2", domain.PriceLine{
			PND: dec("399.4396"), PNDI: dec("84.7282"), PD: dec("396.9289"), PDI: dec("82.2175")}},
		{"P9824", "h", domain.TypeLabor, "Servente", domain.PriceLine{
			PND: dec("19.4893"), PNDI: dec("19.4893"), PD: dec("17.7485"), PDI: dec("17.7485")}},
		// 5953.3602000000001 in the sheet.
		{"P9972", "mês", domain.TypeLabor, "Técnico de batimetria", domain.PriceLine{
			PND: dec("6679.4838"), PNDI: dec("6679.4838"), PD: dec("5953.3602"), PDI: dec("5953.3602")}},
		{"M0003", "kg", domain.TypeMaterial, "Aço CA 25", all("7.1213")},
		{"M0015", "un", domain.TypeMaterial, "Espoleta elétrica Nº 8", all("22.2137")},
	})
	if r := db.resource(t, alKey, "M0104"); r != nil {
		t.Errorf("unpriced material M0104 was imported: %+v", r)
	}
	checkCompositions(t, db, alKey, []wantComposition{
		{"0307731", "dm³", "", domain.UnitPrice{PND: dec("112.02")}},
		{"0307732", "dm³", "", domain.UnitPrice{PND: dec("90.89")}}, // 90.89000000000001 in the sheet
		{"0308308", "un", "", domain.UnitPrice{PND: dec("7261.89")}},
		{"7119700", "m²", "", domain.UnitPrice{PND: dec("57.43")}},
	})
}

// The XLSX reports and their cell-by-cell CSV conversions give the same
// data, which is what ReadSicro reads from the CSV (rounded the same way).
func TestSicroXLSXMatchesReadSicro(t *testing.T) {
	t.Parallel()
	got := parse(t, bankfiles.OfficialSicro(), "AL", "01/2024", alFiles...)
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	byCode := map[string]*domain.BankResource{}
	for _, e := range got {
		for _, r := range e.Resources {
			byCode[r.Code] = r
		}
	}
	costs := map[string]*domain.BankComposition{}
	for _, e := range got {
		for _, c := range e.Compositions {
			costs[c.Code] = c
		}
	}
	n := 0
	for _, e := range eds {
		if e.Edition.Bank != "SICRO3" {
			continue
		}
		for _, r := range e.Resources {
			n++
			if d := cmp.Diff(r, byCode[r.Code], decimals); d != "" {
				t.Errorf("resource %s (-ReadSicro +official):\n%s", r.Code, d)
			}
		}
		for _, c := range e.Compositions {
			n++
			// ReadSicro prices a composition in both regimes; the official
			// reader only in the regime the report states (sem).
			if o := costs[c.Code]; o == nil || !o.Cost.PND.Equal(c.Cost.PND) || o.Description != c.Description || o.Unit != c.Unit {
				t.Errorf("composition %s: official %+v, ReadSicro %+v", c.Code, o, c)
			}
		}
	}
	if n == 0 {
		t.Fatal("the sample has no SICRO rows")
	}
}

// The analytic files (hand-made in the official layout from the real
// MG 08/2026 subset the sample embeds) give each composition its cost in
// both regimes and its structure, the same as the sample's estrutura JSON.
func TestImportSinapiAnalytic(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "c.db"))
	im := mustImport(t, db, bankfiles.OfficialSinapi(), "MG", "08/2026", mgAnalyticD, mgAnalyticND)
	if d := cmp.Diff([]bankfiles.RegimeCount{{Regime: nd, Compositions: 5}, {Regime: des, Compositions: 5}}, im.Counts()); d != "" {
		t.Errorf("counts (-want +got):\n%s", d)
	}
	e := db.edition(t, mgKey)
	if e.Compositions != 5 || e.Structures != 5 || e.Resources != 0 {
		t.Errorf("edition = %+v", e)
	}
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, want := range eds[0].Compositions {
		if len(want.Items) == 0 {
			continue
		}
		n++
		got := db.composition(t, mgKey, want.Code)
		if got == nil {
			t.Errorf("composition %s is missing", want.Code)
			continue
		}
		if got.Class != "PARE" {
			t.Errorf("composition %s class %q, want PARE", want.Code, got.Class)
		}
		got.Class = ""
		if !got.Priced(domain.NaoDesonerado) || !got.Priced(domain.Desonerado) {
			t.Errorf("composition %s has the regimes %v, want both", want.Code, got.Regimes)
		}
		got.Regimes = want.Regimes // the store records them; the reader leaves them to the import
		if d := cmp.Diff(want, got, decimals); d != "" {
			t.Errorf("composition %s (-sample +analytic):\n%s", want.Code, d)
		}
	}
	if n != 5 {
		t.Errorf("%d compositions with a structure in the sample, want 5", n)
	}
}

// A SINAPI XLSX (title rows above the header, numbers as binary floats)
// reads the same as its CSV conversion.
func TestSinapiXLSXMatchesCSV(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// The title rows state the file's own state and month: they are
	// checked against its name (titles.go).
	title := func(month, state string) []string {
		return []string{"SISTEMA NACIONAL DE PESQUISA DE CUSTOS E ÍNDICES DA CONSTRUÇÃO CIVIL", "PREÇO DE INSUMOS",
			"DATA DE EMISSÃO: 11/11/2024", "MÊS DE COLETA: " + month, "LOCALIDADE: " + state}
	}
	cases := []struct {
		name    string
		state   string
		month   string
		csv     []string
		convert string // the file also given as XLSX
	}{
		{"insumos", "PE", "10/2024", peFiles, peInsumos},
		{"synthetic", "PE", "10/2024", peFiles, peSinteticoND},
		{"analytic", "MG", "08/2026", []string{mgAnalyticD, mgAnalyticND}, mgAnalyticND},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			xlsx := filepath.Join(dir, strings.TrimSuffix(filepath.Base(tc.convert), ".csv")+".xlsx")
			writeFile(t, xlsx, csvToXLSX(t, tc.convert, title(tc.month, tc.state)...))
			var files []string
			for _, f := range tc.csv {
				if f == tc.convert {
					f = xlsx
				}
				files = append(files, f)
			}
			want := parse(t, bankfiles.OfficialSinapi(), tc.state, tc.month, tc.csv...)
			got := parse(t, bankfiles.OfficialSinapi(), tc.state, tc.month, files...)
			// The records are the same; the files read (Source, Files) differ.
			if d := cmp.Diff(want, got, decimals, cmpopts.IgnoreFields(domain.Edition{}, "Source", "Files")); d != "" {
				t.Errorf("XLSX differs from CSV (-csv +xlsx):\n%s", d)
			}
		})
	}
}

// A bad file stops the import before anything is written: the database
// file is byte for byte what it was, and the error names the file and the
// line at fault.
func TestBadFilesLeaveTheDatabaseUnchanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "c.db"))
	mustImport(t, db, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...)
	mustImport(t, db, bankfiles.OfficialSicro(), "AL", "01/2024", alFiles...)
	before := db.editions(t)
	hash := fileHash(t, db.path)

	insumos := readFile(t, peInsumos)
	type bad struct {
		name   string
		bank   bankfiles.Bank
		state  string
		month  string
		files  []string // the good files
		bad    string   // the name of the bad file, replacing the good one of that name
		data   []byte
		regime *domain.Regime
		want   []string // in the error message
	}
	sinapi, sicro := bankfiles.OfficialSinapi(), bankfiles.OfficialSicro()
	cases := []bad{
		{name: "truncated row", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peInsumos,
			data: replaceLine(t, insumos, 101, func(l string) string { return l[:strings.Index(l, `";"`)+1] }),
			want: []string{"line 101", "short row"}},
		{name: "bad number", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peInsumos,
			data: bytes.Replace(insumos, []byte(`"159,92"`), []byte(`"159,9,2"`), 1),
			want: []string{"line 2", `PRECO MEDIANO "159,9,2" is not a number`}},
		{name: "thousands badly grouped", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peSinteticoD,
			data: bytes.Replace(readFile(t, peSinteticoD), []byte(`"4.068,69"`), []byte(`"40.68,69"`), 1),
			want: []string{"line 7736", `CUSTO TOTAL "40.68,69" is not a number`}},
		{name: "wrong header", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peInsumos,
			data: bytes.Replace(insumos, []byte(`"PRECO MEDIANO R$"`), []byte(`"PRECO R$"`), 1),
			want: []string{"no header row of a SINAPI file"}},
		{name: "file cut inside a field", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peSinteticoND,
			data: readFile(t, peSinteticoND)[:1_000_000], want: []string{"line 3174", "short row"}},
		{name: "row missing before the footer", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peInsumos,
			data: replaceLine(t, insumos, 50, func(string) string { return `"";"";"";"";""` }),
			want: []string{"line 4814", "the footer counts 4811 rows, the file has 4810"}},
		{name: "regime not in the name", bank: sinapi, state: "PE", month: "10/2024", files: peFiles,
			bad: peDir + "composicoes.csv", data: readFile(t, peSinteticoND), want: []string{"tells no regime"}},
		{name: "another state in the name", bank: sinapi, state: "PE", month: "10/2024", files: peFiles,
			bad: peDir + "SINAPI_Custo_Ref_Composicoes_Sintetico_BA_202410_NaoDesonerado.csv", data: readFile(t, peSinteticoND),
			want: []string{"the file name says BA 10/2024; the import is for PE 10/2024"}},
		{name: "code twice with another price", bank: sinapi, state: "PE", month: "10/2024", files: peFiles, bad: peInsumos,
			data: replaceLine(t, insumos, 3, func(string) string {
				return strings.Replace(strings.Split(string(insumos), "\r\n")[1], `"159,92"`, `"159,93"`, 1)
			}),
			want: []string{"line 3: resource 38605 costs 159.93 (idle 159.93) desonerado here and 159.92 (idle 159.92) in", "line 2"}},
		{name: "SICRO bad number", bank: sicro, state: "AL", month: "01/2024", files: alFiles, bad: alCompositions,
			data: rewriteXLSX(t, alCompositions, "xl/worksheets/sheet1.xml", func(s string) string {
				return strings.Replace(s, "<v>112.02</v>", "<v>112.0x2</v>", 1)
			}),
			want: []string{"line 4", `Custo Unitário "112.0x2" is not a number`}},
		{name: "SICRO wrong header", bank: sicro, state: "AL", month: "01/2024", files: alFiles, bad: alMaterials,
			data: rewriteXLSX(t, alMaterials, "xl/sharedStrings.xml", func(s string) string {
				return strings.Replace(s, "Preço Unitário (R$)", "Valor (R$)", 1)
			}),
			want: []string{"no header row of a SICRO3 file"}},
		{name: "SICRO another month", bank: sicro, state: "AL", month: "02/2024", files: alFiles,
			want: []string{`say AL 01/2024; the import is for AL 02/2024`}},
		{name: "SICRO another state", bank: sicro, state: "SE", month: "01/2024", files: alFiles,
			want: []string{`"CGCIT | SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO | DNIT | Alagoas - Janeiro/2024`, "the import is for SE 01/2024"}},
		{name: "SINAPI file given as SICRO", bank: sicro, state: "AL", month: "01/2024", files: alFiles,
			bad: "x/" + filepath.Base(peInsumos), data: insumos, want: []string{"looks like a SINAPI insumos file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := append([]string(nil), tc.files...)
			badPath := ""
			if tc.bad != "" {
				badPath = filepath.Join(t.TempDir(), filepath.Base(tc.bad))
				writeFile(t, badPath, tc.data)
				replaced := false
				for i, f := range files {
					if filepath.Base(f) == filepath.Base(tc.bad) {
						files[i], replaced = badPath, true
					}
				}
				if !replaced { // a file of its own, among the good ones
					files = append(files[:1], append([]string{badPath}, files[1:]...)...)
				}
			}
			_, _, err := importFiles(context.Background(), db.svc, tc.bank, tc.state, tc.month, tc.regime, files...)
			if err == nil {
				t.Fatal("the import succeeded")
			}
			if domain.ErrorCode(err) != domain.EBADREQUEST {
				t.Errorf("error code %s, want %s: %v", domain.ErrorCode(err), domain.EBADREQUEST, err)
			}
			msg := err.Error()
			if badPath != "" && !strings.Contains(msg, badPath) {
				t.Errorf("the error does not name the file %s: %s", badPath, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the error does not say %q: %s", w, msg)
				}
			}
			if d := cmp.Diff(before, db.editions(t)); d != "" {
				t.Errorf("the editions changed (-before +after):\n%s", d)
			}
			if fileHash(t, db.path) != hash {
				t.Error("the database file changed")
			}
		})
	}
}

// The import is one transaction: an edition that fails after thousands of
// records were written leaves nothing behind.
func TestImportIsOneTransaction(t *testing.T) {
	t.Parallel()
	db := openDB(t, filepath.Join(t.TempDir(), "c.db"))
	hash := fileHash(t, db.path)
	data := editionData(parse(t, bankfiles.OfficialSinapi(), "PE", "10/2024", peFiles...))
	broken := data[0]
	broken.Edition.Month = "13/2024"
	if _, err := db.svc.ImportEditions(context.Background(), append(data, broken)); err == nil {
		t.Fatal("the import of a bad edition succeeded")
	}
	if eds := db.editions(t); len(eds) != 0 {
		t.Errorf("editions after a failed import: %+v", eds)
	}
	if r := db.resource(t, peKey, "38605"); r != nil {
		t.Errorf("resource 38605 was written: %+v", r)
	}
	if fileHash(t, db.path) != hash {
		t.Error("the database file changed")
	}
}

// The analytic file and the synthetic one must agree on a cost; a structure
// without a cost in any regime is refused.
func TestSinapiAnalyticChecks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	header := `"CODIGO  DA COMPOSICAO";"DESCRICAO DA COMPOSICAO";"UNIDADE";"CUSTO TOTAL";"TIPO ITEM";"CODIGO ITEM";"COEFICIENTE";"OUTRA"` + "\r\n"
	analytic := filepath.Join(dir, "SINAPI_Custo_Ref_Composicoes_Analitico_MG_202608_Desonerado.csv")
	synthetic := filepath.Join(dir, "SINAPI_Custo_Ref_Composicoes_Sintetico_MG_202608_Desonerado.csv")
	writeFile(t, synthetic, []byte(`"CODIGO  DA COMPOSICAO";"DESCRICAO DA COMPOSICAO";"UNIDADE";"CUSTO TOTAL"`+"\r\n"+
		`"10";"MURO";"M2";"31,11"`+"\r\n"))
	for _, tc := range []struct {
		name, body, want string
	}{
		{"cost differs", `"10";"MURO";"M2";"31,12";"";"";"";"x"` + "\r\n" + `"10";"";"";"";"INSUMO";"1";"0,5";""` + "\r\n",
			"composition 10 costs 31.12 desonerado here and 31.11 in " + synthetic + " line 2"},
		{"no cost anywhere", `"20";"";"";"";"INSUMO";"1";"0,5";""` + "\r\n", "composition 20 has no cost in any regime"},
		{"bad item kind", `"10";"MURO";"M2";"";"";"";"";""` + "\r\n" + `"10";"";"";"";"EQUIPAMENTO";"1";"0,5";""` + "\r\n",
			`line 3: TIPO ITEM "EQUIPAMENTO" is neither INSUMO nor COMPOSICAO`},
		{"item before a composition", `"";"";"";"";"INSUMO";"1";"0,5";""` + "\r\n", "line 2: an item row comes before any composition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeFile(t, analytic, []byte(header+tc.body))
			_, err := parseErr(bankfiles.OfficialSinapi(), "MG", "08/2026", synthetic, analytic)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// A good analytic file alone: cost from its composition row, items.
	writeFile(t, analytic, []byte(header+`"10";"MURO";"M2";"31,11";"";"";"";""`+"\r\n"+
		`"10";"";"";"";"INSUMO";"1";"0,5";""`+"\r\n"+`"";"";"";"";"COMPOSICAO";"11";"1.000,25";""`+"\r\n"))
	eds, err := parseErr(bankfiles.OfficialSinapi(), "MG", "08/2026", synthetic, analytic)
	if err != nil {
		t.Fatal(err)
	}
	want := []*domain.BankComposition{{Code: "10", Description: "MURO", Unit: "M2", Cost: domain.UnitPrice{PD: dec("31.11")},
		Items: []domain.StructureItem{{Kind: domain.KindResource, Code: "1", Coefficient: dec("0.5")},
			{Kind: domain.KindComposition, Code: "11", Coefficient: dec("1000.25")}}}}
	if d := cmp.Diff(want, eds[0].Compositions, decimals); d != "" {
		t.Errorf("compositions (-want +got):\n%s", d)
	}
}

func parseErr(bank bankfiles.Bank, state, month string, files ...string) ([]bankfiles.Edition, error) {
	im, err := bankfiles.NewImporter(bank, state, month)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if _, err := im.AddFile(context.Background(), f); err != nil {
			return nil, err
		}
	}
	return im.Editions()
}

// --regime overrides the file name; without it a name must tell the regime.
func TestSinapiRegimeFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	renamed := filepath.Join(dir, "composicoes.csv")
	writeFile(t, renamed, readFile(t, peSinteticoND))
	db := openDB(t, filepath.Join(dir, "c.db"))
	r := domain.NaoDesonerado
	if _, _, err := importFiles(context.Background(), db.svc, bankfiles.OfficialSinapi(), "PE", "10/2024", &r, renamed); err != nil {
		t.Fatal(err)
	}
	checkCompositions(t, db, peKey, []wantComposition{{"97141", "M", "ASTU", domain.UnitPrice{PND: dec("5.03")}}})
	for _, tc := range []struct {
		name string
		want domain.Regime
		ok   bool
	}{
		{"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.xlsx", des, true},
		{"x/SINAPI_Preco_Ref_Insumos_PE_202410_NaoDesonerado.csv", nd, true},
		{"insumos sem desoneração.csv", nd, true},
		{"insumos com desoneração.csv", des, true},
		{"insumos.csv", 0, false},
	} {
		got, ok := bankfiles.SinapiRegimeFromName(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("SinapiRegimeFromName(%q) = %v, %v, want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// A CSV saved by Excel on Brazilian Windows (Windows-1252) reads the same as
// the UTF-8 one.
func TestSinapiWindows1252CSV(t *testing.T) {
	t.Parallel()
	var latin []byte
	for _, r := range string(readFile(t, peSinteticoND)) {
		if r > 0xff {
			t.Fatalf("%q is not in Latin-1", r)
		}
		latin = append(latin, byte(r))
	}
	path := filepath.Join(t.TempDir(), filepath.Base(peSinteticoND))
	writeFile(t, path, latin)
	want := parse(t, bankfiles.OfficialSinapi(), "PE", "10/2024", peSinteticoND)
	got := parse(t, bankfiles.OfficialSinapi(), "PE", "10/2024", path)
	if d := cmp.Diff(want, got, decimals, cmpopts.IgnoreFields(domain.Edition{}, "Source", "Files")); d != "" {
		t.Errorf("Windows-1252 differs from UTF-8 (-utf8 +cp1252):\n%s", d)
	}
	if c := got[0].Compositions[0]; !strings.Contains(c.Description, "ÁGUA, DN 80 MM, JUNTA ELÁSTICA") {
		t.Errorf("description %q", c.Description)
	}
}

// A file with a header and no data is read, but an import of nothing fails.
func TestImportOfNothing(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), filepath.Base(peInsumos))
	writeFile(t, path, []byte(`"CODIGO  ";"DESCRICAO DO INSUMO";"UNIDADE DE MEDIDA";"ORIGEM DO PRECO";"PRECO MEDIANO R$"`+"\r\n\r\n"))
	_, err := parseErr(bankfiles.OfficialSinapi(), "PE", "10/2024", path)
	if err == nil || !strings.Contains(err.Error(), "the files hold no resource and no composition") {
		t.Errorf("error %v", err)
	}
	im, err := bankfiles.NewImporter(bankfiles.OfficialSinapi(), "PE", "10/2024")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := im.Editions(); err == nil || !strings.Contains(err.Error(), "no file was read") {
		t.Errorf("error %v", err)
	}
}
