// Command sinapistates writes generated per-state SINAPI reports for the
// import benchmark, bench/import.sh: for each state and each regime
// (desonerado, não desonerado) an insumos file
// (SINAPI_Preco_Ref_Insumos_UF_AAAAMM_<Regime>.csv, the layout of the real
// PE 10/2024 file in adapters/bankfiles/testdata/sinapi-pe-202410) and an
// analytic compositions file
// (SINAPI_Custo_Ref_Composicoes_Analitico_UF_AAAAMM_<Regime>.csv, the
// layout of adapters/bankfiles/testdata/sinapi-analitico-mg-202608: title
// rows, the header, a composition row followed by a row per item, a
// footer), as CSV (";", every field quoted, decimal comma).
//
// By default a state has 5,000 insumos and 7,500 compositions of 5 items
// (PE 10/2024 has 4,811 insumos and 7,737 compositions), so 50,000 data
// rows per regime and 100,000 per state: -states 1 is the 100,000-row
// import, -states 10 the 1,000,000-row one. The structures are the same in
// every state (SINAPI's coefficients are national), the prices differ. The
// output is the same for the same flags.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// states are the 27 UFs, in the order the states are taken.
var states = []string{"AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA",
	"PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"}

var words = []string{"ABRACADEIRA", "ADAPTADOR", "AREIA", "ARGAMASSA", "BLOCO", "BUCHA", "CABO", "CAIXA",
	"CIMENTO", "CONCRETO", "CURVA", "ELETRODUTO", "FITA", "JOELHO", "LUVA", "MANTA", "PARAFUSO", "PEDRA",
	"PREGO", "REGISTRO", "TELHA", "TINTA", "TUBO", "VALVULA"}

func main() {
	out := flag.String("out", "sinapi-states", "directory to write the files into (created)")
	n := flag.Int("states", 1, "number of states (1 to 27), taken in alphabetical order of the UF")
	month := flag.String("month", "202410", "reference month, AAAAMM, as in the file names")
	insumos := flag.Int("insumos", 5000, "insumos per state and regime")
	compositions := flag.Int("compositions", 7500, "compositions per state and regime")
	items := flag.Int("items", 5, "items per composition (analytic rows: compositions × (items + 1))")
	flag.Parse()
	if *n < 1 || *n > len(states) {
		fail(fmt.Errorf("-states %d: 1 to %d", *n, len(states)))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	g := newGen(*insumos, *compositions, *items)
	rows := 0
	for s, uf := range states[:*n] {
		for r, regime := range []string{"Desonerado", "NaoDesonerado"} {
			seed := uint64(s*2 + r + 1)
			name := fmt.Sprintf("SINAPI_Preco_Ref_Insumos_%s_%s_%s.csv", uf, *month, regime)
			k, err := write(filepath.Join(*out, name), func(w *bufio.Writer) int { return g.insumos(w, seed) })
			if err != nil {
				fail(err)
			}
			rows += k
			name = fmt.Sprintf("SINAPI_Custo_Ref_Composicoes_Analitico_%s_%s_%s.csv", uf, *month, regime)
			title := fmt.Sprintf("LOCALIDADE: %s   MÊS DE COLETA: %s/%s   ENCARGOS SOCIAIS: %s", uf, (*month)[4:], (*month)[:4], strings.ToUpper(regime))
			k, err = write(filepath.Join(*out, name), func(w *bufio.Writer) int { return g.analytic(w, seed, title) })
			if err != nil {
				fail(err)
			}
			rows += k
		}
	}
	fmt.Printf("%d states, %d files, %d data rows in %s\n", *n, *n*4, rows, *out)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sinapistates:", err)
	os.Exit(1)
}

func write(path string, body func(*bufio.Writer) int) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rows := body(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return rows, f.Close()
}

// gen holds what is the same in every state: the codes, descriptions and
// structures.
type gen struct {
	insumoCode []int    // in the files' order (by description, as Caixa sorts them)
	insumoDesc []string // by the same index
	insumoUnit []string
	compCode   []int
	compDesc   []string
	compClass  []string
	items      [][]item
}

type item struct {
	composition bool
	index       int // into insumoCode or compCode
	coef        int // ten-thousandths
}

func newGen(insumos, compositions, items int) *gen {
	rng := rand.New(rand.NewPCG(11, 2024))
	g := &gen{}
	units := []string{"UN", "M", "M2", "M3", "KG", "H", "L", "MES"}
	perm := rng.Perm(insumos) // codes do not follow the descriptions' order
	for i := 0; i < insumos; i++ {
		g.insumoCode = append(g.insumoCode, 1000+perm[i]*7)
		g.insumoDesc = append(g.insumoDesc, fmt.Sprintf("%s %s %05d, %d X %d MM", words[i*len(words)/insumos],
			words[rng.IntN(len(words))], i, 10+rng.IntN(490), 1+rng.IntN(99)))
		g.insumoUnit = append(g.insumoUnit, units[rng.IntN(len(units))])
	}
	classes := []string{"ASTU", "CHOR", "ESCO", "FUES", "INEL", "INHI", "PARE", "PISO", "REVE", "SEDI"}
	perm = rng.Perm(compositions)
	for j := 0; j < compositions; j++ {
		g.compCode = append(g.compCode, 80000+perm[j]*3)
		class := classes[j*len(classes)/compositions]
		g.compClass = append(g.compClass, class)
		g.compDesc = append(g.compDesc, fmt.Sprintf("SERVICO %s %05d DE %s E %s, INCLUSO TRANSPORTE. AF_%02d/2024",
			class, j, words[rng.IntN(len(words))], words[rng.IntN(len(words))], 1+rng.IntN(12)))
		its := make([]item, items)
		for k := range its {
			it := item{index: rng.IntN(insumos), coef: 1 + rng.IntN(99999)}
			if j > 0 && rng.IntN(4) == 0 { // a quarter are earlier compositions: no cycle
				it = item{composition: true, index: rng.IntN(j), coef: 1 + rng.IntN(99999)}
			}
			its[k] = it
		}
		g.items = append(g.items, its)
	}
	return g
}

// money writes centavos with a decimal comma and "." between thousands.
func money(c int) string {
	s := fmt.Sprintf("%d", c/100)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "." + s[i:]
	}
	return fmt.Sprintf("%s,%02d", s, c%100)
}

func coef(t int) string { return fmt.Sprintf("%d,%04d", t/10000, t%10000) }

func quoted(w *bufio.Writer, cells ...string) {
	for i, c := range cells {
		if i > 0 {
			w.WriteByte(';')
		}
		w.WriteByte('"')
		w.WriteString(c)
		w.WriteByte('"')
	}
	w.WriteString("\r\n")
}

func (g *gen) price(seed uint64, i int) int {
	return 5 + int((uint64(i)*2654435761+seed*40503)%250000)
}

func (g *gen) insumos(w *bufio.Writer, seed uint64) int {
	quoted(w, "CODIGO  ", "DESCRICAO DO INSUMO", "UNIDADE DE MEDIDA", "ORIGEM DO PRECO", "PRECO MEDIANO R$")
	for i, code := range g.insumoCode {
		quoted(w, fmt.Sprint(code), fmt.Sprintf("%-300s", g.insumoDesc[i]), fmt.Sprintf("%-6s", g.insumoUnit[i]), "CR", money(g.price(seed, i)))
	}
	quoted(w, "", "", "", "", "")
	quoted(w, fmt.Sprintf("TOTAL DE INSUMOS : %d", len(g.insumoCode)), "", "", "", "")
	return len(g.insumoCode)
}

func (g *gen) analytic(w *bufio.Writer, seed uint64, title string) int {
	blank := make([]string, 20)
	quoted(w, append([]string{"SINAPI - SISTEMA NACIONAL DE PESQUISA DE CUSTOS E ÍNDICES DA CONSTRUÇÃO CIVIL"}, blank[1:]...)...)
	quoted(w, append([]string{"CUSTO DE COMPOSIÇÕES - ANALÍTICO"}, blank[1:]...)...)
	quoted(w, append([]string{title}, blank[1:]...)...)
	quoted(w, blank...)
	quoted(w, "DESCRICAO DA CLASSE", "SIGLA DA CLASSE", "DESCRICAO DO TIPO 1", "SIGLA DO TIPO 1", "CODIGO DO AGRUPADOR",
		"DESCRICAO DO AGRUPADOR", "CODIGO  DA COMPOSICAO", "DESCRICAO DA COMPOSICAO", "UNIDADE", "ORIGEM DE PREÇO",
		"CUSTO TOTAL", "VINCULO", "TIPO ITEM", "CODIGO ITEM", "DESCRIÇÃO ITEM", "UNIDADE ITEM", "ORIGEM DE PREÇO ITEM",
		"COEFICIENTE", "PRECO UNITARIO", "CUSTO TOTAL ITEM")
	rows := 0
	for j, code := range g.compCode {
		head := []string{"CLASSE " + g.compClass[j], g.compClass[j], "TIPO", "0101", "", "", fmt.Sprint(code), g.compDesc[j], "M2  "}
		quoted(w, append(head, "CR", money(g.price(seed, 100000+j)), "CAIXA REFERENCIAL", "", "", "", "", "", "", "", "")...)
		rows++
		for _, it := range g.items[j] {
			var kind, desc, unit string
			var c, price int
			if it.composition {
				kind, c, desc, unit = "COMPOSICAO", g.compCode[it.index], g.compDesc[it.index], "M2"
				price = g.price(seed, 100000+it.index)
			} else {
				kind, c, desc, unit = "INSUMO", g.insumoCode[it.index], g.insumoDesc[it.index], g.insumoUnit[it.index]
				price = g.price(seed, it.index)
			}
			quoted(w, append(head, "", "", "", kind, fmt.Sprintf("%-7d", c), fmt.Sprintf("%-120s", desc), fmt.Sprintf("%-6s", unit),
				"CR", coef(it.coef), money(price), money(price*it.coef/10000))...)
			rows++
		}
	}
	quoted(w, blank...)
	quoted(w, append([]string{fmt.Sprintf("TOTAL DE COMPOSICOES : %d", len(g.compCode))}, blank[1:]...)...)
	return rows
}
