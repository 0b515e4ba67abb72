package bankfiles_test

import (
	"io"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

const sinapiHeader = "codigo,descricao,unidade,preco_mediano,mes_referencia,desonerado\n"

var sinapiMeta = domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026"}

func sinapiFiles(insumos, composicoes, estrutura string) bankfiles.SinapiFiles {
	f := bankfiles.SinapiFiles{
		Insumos:     strings.NewReader(sinapiHeader + insumos),
		Composicoes: strings.NewReader(sinapiHeader + composicoes),
	}
	if estrutura != "" {
		f.Estrutura = strings.NewReader(estrutura)
	}
	return f
}

func TestReadSinapi(t *testing.T) {
	ed, err := bankfiles.ReadSinapi(sinapiMeta, sinapiFiles(
		"1,PEDREIRO (HORISTA),H,20.1,2026-08,False\n1,PEDREIRO (HORISTA),H,18.05,2026-08,True\n"+
			"2,AREIA,M3,100,2026-08,True\n2,AREIA,M3,100,2026-08,False\n",
		"10,MURO,M2,33.33,2026-08,False\n10,MURO,M2,31.11,2026-08,True\n",
		`[{"c":"10","t":"I","i":"1","k":0.1234567},{"c":"10","t":"C","i":"11","k":1e-3}]`,
	))
	if err != nil {
		t.Fatal(err)
	}
	e := ed.Edition
	if e.Resources != 2 || e.Compositions != 1 || e.Structures != 1 || len(e.Regimes) != 2 {
		t.Errorf("edition = %+v", e)
	}
	p := ed.Resources[0]
	if p.Type != domain.TypeLabor || p.Prices.PND.String() != "20.1" || p.Prices.PNDI.String() != "20.1" ||
		p.Prices.PD.String() != "18.05" || p.Prices.PDI.String() != "18.05" {
		t.Errorf("resource 1 = %+v", p)
	}
	if ed.Resources[1].Type != domain.TypeMaterial {
		t.Errorf("resource 2 type = %d, want material", ed.Resources[1].Type)
	}
	items := ed.Compositions[0].Items
	if len(items) != 2 || items[0].Kind != domain.KindResource || items[0].Coefficient.String() != "0.1234567" ||
		items[1].Kind != domain.KindComposition || items[1].Coefficient.String() != "0.001" {
		t.Errorf("items = %+v", items)
	}
}

func TestReadSinapiErrors(t *testing.T) {
	ok := "1,AREIA,M3,100,2026-08,False\n1,AREIA,M3,100,2026-08,True\n"
	comp := "10,MURO,M2,33.33,2026-08,False\n10,MURO,M2,31.11,2026-08,True\n"
	for _, tc := range []struct {
		name                        string
		insumos, composicoes, estru string
		want                        string
	}{
		{"wrong month", "1,AREIA,M3,100,2026-07,False\n", comp, "", "mes_referencia"},
		{"missing regime", ok + "2,BRITA,M3,90,2026-08,False\n", comp, "", "code 2 has no desonerado price"},
		{"second price", ok + "1,AREIA,M3,101,2026-08,True\n", comp, "", "second desonerado price"},
		{"other description", "1,AREIA,M3,100,2026-08,False\n1,AREIA FINA,M3,100,2026-08,True\n", comp, "", "another description"},
		{"bad regime", "1,AREIA,M3,100,2026-08,sim\n", comp, "", "neither True nor False"},
		{"comma decimal", "1,AREIA,M3,\"100,5\",2026-08,False\n", comp, "", "not a number"},
		{"coefficient as string", ok, comp, `[{"c":"10","t":"I","i":"1","k":"0.5"}]`, "k must be a JSON number"},
		{"unknown kind", ok, comp, `[{"c":"10","t":"X","i":"1","k":0.5}]`, "neither I nor C"},
		{"unpriced composition", ok, comp, `[{"c":"99","t":"I","i":"1","k":0.5}]`, "composition 99 has no price"},
	} {
		_, err := bankfiles.ReadSinapi(sinapiMeta, sinapiFiles(tc.insumos, tc.composicoes, tc.estru))
		if err == nil || !strings.Contains(err.Error(), tc.want) || domain.ErrorCode(err) != domain.EBADREQUEST {
			t.Errorf("%s: err = %v, want EBADREQUEST containing %q", tc.name, err, tc.want)
		}
	}
	f := sinapiFiles(ok, comp, "")
	f.Insumos = strings.NewReader("code,price\n1,2\n")
	if _, err := bankfiles.ReadSinapi(sinapiMeta, f); err == nil || !strings.Contains(err.Error(), `no column "codigo"`) {
		t.Errorf("bad header: err = %v", err)
	}
	if _, err := bankfiles.ReadSinapi(domain.Edition{Bank: "SINAPI", State: "XX", Month: "08/2026"}, sinapiFiles(ok, comp, "")); err == nil {
		t.Error("bad state accepted")
	}
}

// Title and header rows as in DNIT's reports (CRLF line ends).
const (
	eqTitleND  = "CGCIT,SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO,,,,,,,,,DNIT\r\n,Alagoas - Janeiro/2024,,,,,,,,,\r\n"
	eqTitleD   = "CGCIT,SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO,,,,,,,,,DNIT\r\n,Alagoas - Janeiro/2024 - Com desoneração,,,,,,,,,\r\n"
	eqHeader   = "Código,Descrição,Valor de Aquisição (R$),Depreciação (R$/h),Oportunidade de Capital (R$/h),Seguros e Impostos (R$/h),Manutenção (R$/h),Operação (R$/h),Mão de Obra de Operação (R$/h),Custo Produtivo (R$/h),Custo Improdutivo (R$/h)\r\n"
	moTitle    = "CGCIT,SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO,,,,,DNIT\r\n,,,,,,\r\nAlagoas - Janeiro/2024,,,,,,\r\n"
	moHeader   = "Código,Descrição,Unidade,Salário (R$),Encargos Totais,Custo (R$),\"Periculosidade/\nInsalubridade\"\r\n"
	matTitle   = "CGCIT,SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO,,DNIT\r\n,Alagoas - Janeiro/2024,,\r\n"
	matHeader  = "Código,Descrição,Unidade,Preço Unitário (R$)\r\n"
	compHeader = "Código,Descrição do Serviço,Unidade,Custo Unitário (R$)\r\n"
)

type sicroText struct{ eqND, eqD, moND, moD, mat, comp string }

func (s sicroText) files() bankfiles.SicroFiles {
	r := func(s string) io.Reader {
		if s == "" {
			return nil
		}
		return strings.NewReader(s)
	}
	return bankfiles.SicroFiles{
		EquipmentND: r(s.eqND), EquipmentD: r(s.eqD), LaborND: r(s.moND), LaborD: r(s.moD),
		Materials: r(s.mat), Compositions: r(s.comp),
	}
}

func goodSicro() sicroText {
	return sicroText{
		eqND: eqTitleND + eqHeader + "E9999,Trator,,,,,,,,100.00005,40.56779999999999\r\n",
		eqD:  eqTitleD + eqHeader + "E9999,Trator,,,,,,,,99.99994999,40.5678\r\n",
		moND: moTitle + "Sem desoneração,,,,,,\r\n" + moHeader + "P9999,Servente,h,6.1,2.0,19.505700000000001,0\r\n",
		moD:  moTitle + "Com desoneração,,,,,,\r\n" + moHeader + "P9999,Servente,h,6.1,1.7,17.764900000000001,0\r\n",
		mat:  matTitle + matHeader + "M9999,Areia,m³,-\r\nM9998,Brita,m³,8.428000000000001\r\n",
		comp: matTitle + compHeader + "0000001,Muro,m²,8676.549999999999\r\n",
	}
}

func TestReadSicro(t *testing.T) {
	meta := domain.Edition{Bank: "SICRO3", State: "AL", Month: "01/2024"}
	ed, err := bankfiles.ReadSicro(meta, goodSicro().files())
	if err != nil {
		t.Fatal(err)
	}
	if ed.Edition.Resources != 3 || ed.Edition.Compositions != 1 || len(ed.Edition.Regimes) != 2 {
		t.Fatalf("edition = %+v", ed.Edition)
	}
	got := map[string]domain.PriceLine{}
	for _, r := range ed.Resources {
		got[r.Code] = r.Prices
	}
	// Half up to 4 places: 100.00005 -> 100.0001, 99.99994999 -> 99.9999.
	for code, want := range map[string][4]string{
		"E9999": {"100.0001", "99.9999", "40.5678", "40.5678"},
		"P9999": {"19.5057", "17.7649", "19.5057", "17.7649"},
		"M9998": {"8.428", "8.428", "8.428", "8.428"},
	} {
		p := got[code]
		for i, d := range []string{p.PND.String(), p.PD.String(), p.PNDI.String(), p.PDI.String()} {
			if d != want[i] {
				t.Errorf("%s price %d = %s, want %s", code, i, d, want[i])
			}
		}
	}
	if _, ok := got["M9999"]; ok {
		t.Error(`material priced "-" was read`)
	}
	if c := ed.Compositions[0]; c.Code != "0000001" || c.Cost.PND.String() != "8676.55" || !c.Cost.PD.IsZero() {
		t.Errorf("composition = %+v", c)
	}
}

func TestReadSicroErrors(t *testing.T) {
	meta := domain.Edition{Bank: "SICRO3", State: "AL", Month: "01/2024"}
	for _, tc := range []struct {
		name   string
		change func(*sicroText)
		want   string
	}{
		{"regimes swapped", func(s *sicroText) { s.eqND, s.eqD = s.eqD, s.eqND }, "com desoneração"},
		{"one regime only", func(s *sicroText) { s.moD = "" }, "given together"},
		{"other state", func(s *sicroText) { s.mat = strings.Replace(s.mat, "Alagoas", "Sergipe", 1) }, "do not name Alagoas"},
		{"other month", func(s *sicroText) { s.comp = strings.Replace(s.comp, "Janeiro", "Julho", 1) }, "janeiro/2024"},
		{"code in one regime", func(s *sicroText) { s.eqD = eqTitleD + eqHeader + "E9998,Trator,,,,,,,,1,1\r\n" }, "code E9999"},
		{"empty cost", func(s *sicroText) { s.eqND = eqTitleND + eqHeader + "E9999,Trator,,,,,,,,,1\r\n" }, "not a number"},
		{"no header", func(s *sicroText) { s.comp = matTitle + "0000001,Muro,m²,1\r\n" }, "no header row"},
		{"duplicate code", func(s *sicroText) { s.comp += "0000001,Muro,m²,2\r\n" }, "appears twice"},
		{"code in two reports", func(s *sicroText) { s.mat += "P9999,Servente,h,1\r\n" }, "also in"},
	} {
		s := goodSicro()
		tc.change(&s)
		_, err := bankfiles.ReadSicro(meta, s.files())
		if err == nil || !strings.Contains(err.Error(), tc.want) || domain.ErrorCode(err) != domain.EBADREQUEST {
			t.Errorf("%s: err = %v, want EBADREQUEST containing %q", tc.name, err, tc.want)
		}
	}
}

// TestReadSinapiClass: an optional `classe` column gives each composition
// its SINAPI class, so that its items show a real `type`; a class outside
// the catalogue, or two classes for one code, is refused.
func TestReadSinapiClass(t *testing.T) {
	const header = "codigo,descricao,unidade,preco_mediano,mes_referencia,desonerado,classe\n"
	read := func(comps string) (*bankfiles.Edition, error) {
		return bankfiles.ReadSinapi(sinapiMeta, bankfiles.SinapiFiles{
			Insumos:     strings.NewReader(sinapiHeader + "2,AREIA,M3,100,2026-08,False\n"),
			Composicoes: strings.NewReader(header + comps),
		})
	}
	ed, err := read("10,MURO,M2,33.33,2026-08,False,pare\n11,PISO,M2,20,2026-08,False,\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{ed.Compositions[0].Class, ed.Compositions[1].Class}; got[0] != "PARE" || got[1] != "" {
		t.Errorf("classes = %q, want PARE and none", got)
	}
	for _, comps := range []string{
		"10,MURO,M2,33.33,2026-08,False,XXXX\n",
		"10,MURO,M2,33.33,2026-08,False,PARE\n10,MURO,M2,31.11,2026-08,True,PISO\n",
	} {
		if _, err := read(comps); err == nil || !strings.Contains(err.Error(), "classe") {
			t.Errorf("%q: err = %v, want an error naming classe", comps, err)
		}
	}
}
