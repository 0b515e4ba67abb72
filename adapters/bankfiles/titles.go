package bankfiles

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/costdb/costdb/domain"
)

// This file reads what a file's title rows say of itself — the month of its
// prices, its place (a state, or a capital city for SINAPI), its regime and
// whether its prices carry labour charges — and checks it against what the
// file name and the flags say. The file's own word decides: a flag or a
// name that contradicts it is an error naming both; a file whose titles say
// nothing keeps what the flags and the name say.

// TitleWord is what a file's title rows say; a field is empty (Regime nil)
// when the titles do not say it.
type TitleWord struct {
	State string // the state (UF)
	Place string // the words that told the state ("RECIFE", "ALAGOAS")
	Month string // MM/YYYY
	// Regime is the payroll-tax regime the titles state.
	Regime *domain.Regime
	// WithoutCharges is true when the titles say the prices carry no
	// labour charges ("SEM ENCARGOS").
	WithoutCharges bool
}

// sinapiMonthTitle finds the month of a SINAPI per-state report's titles:
// "MES DE COLETA: 10/2024", "DATA DE PRECO: 10/2024", "MES DE REFERENCIA:
// 10/2024" (normalised text). A bare MM/YYYY is not taken: the emission
// date ("DATA DE EMISSAO: 13/11/2024") holds one too.
var sinapiMonthTitle = regexp.MustCompile(`\b(?:MES DE COLETA|DATA DE PRECO|DATA DO PRECO|MES DE REFERENCIA|DATA BASE|DATA-BASE|REFERENCIA)\s*:?\s*(\d{1,2})\s*/\s*(\d{4})\b`)

// localityTitle finds a SINAPI report's place: "LOCALIDADE: RECIFE",
// "LOCALIDADE: 26 - RECIFE", "LOCALIDADE: PE - RECIFE".
var localityTitle = regexp.MustCompile(`\bLOCALIDADE\s*:?\s*([^|]*)`)

// capitals are the state capitals, whose prices SINAPI collects, normalised.
var capitals = map[string]string{
	"RIO BRANCO": "AC", "MACEIO": "AL", "MACAPA": "AP", "MANAUS": "AM", "SALVADOR": "BA",
	"FORTALEZA": "CE", "BRASILIA": "DF", "VITORIA": "ES", "GOIANIA": "GO", "SAO LUIS": "MA",
	"CUIABA": "MT", "CAMPO GRANDE": "MS", "BELO HORIZONTE": "MG", "BELEM": "PA", "JOAO PESSOA": "PB",
	"CURITIBA": "PR", "RECIFE": "PE", "TERESINA": "PI", "RIO DE JANEIRO": "RJ", "NATAL": "RN",
	"PORTO ALEGRE": "RS", "PORTO VELHO": "RO", "BOA VISTA": "RR", "FLORIANOPOLIS": "SC",
	"SAO PAULO": "SP", "ARACAJU": "SE", "PALMAS": "TO",
}

// ReadTitle reads what normalised title text (File.TitleText) says.
func ReadTitle(title string) TitleWord {
	var t TitleWord
	if m := sinapiMonthTitle.FindStringSubmatch(title); m != nil {
		mm := m[1]
		if len(mm) == 1 {
			mm = "0" + mm
		}
		if month := mm + "/" + m[2]; domain.ValidMonth(month) {
			t.Month = month
		}
	}
	if t.Month == "" {
		if m := sicroMonthPattern.FindStringSubmatch(title); m != nil {
			t.Month = sicroMonths[m[1]] + "/" + m[2]
		}
	}
	if m := localityTitle.FindStringSubmatch(title); m != nil {
		t.State, t.Place = placeState(m[1])
	}
	if t.State == "" {
		t.State, t.Place = stateBeforeMonth(title)
	}
	compact := strings.NewReplacer(" ", "", "-", "", "_", "").Replace(title)
	switch {
	case strings.Contains(compact, "NAODESONERADO") || strings.Contains(compact, "SEMDESONERACAO"):
		r := domain.NaoDesonerado
		t.Regime = &r
	case strings.Contains(compact, "DESONERADO") || strings.Contains(compact, "COMDESONERACAO"):
		r := domain.Desonerado
		t.Regime = &r
	}
	t.WithoutCharges = strings.Contains(compact, "SEMENCARGOS")
	return t
}

// stateBeforeMonth finds a state named (or its UF) right before a month,
// and a dash, as DNIT's titles have it ("ALAGOAS - JANEIRO/2024"); a
// state's name elsewhere is not taken ("PARA" is a word of Portuguese
// too: "RELATORIO PARA JANEIRO/2024" names no state).
func stateBeforeMonth(title string) (uf, place string) {
	for st, name := range domain.States {
		for _, n := range []string{NormalizeName(name), st} { // "ALAGOAS - JANEIRO/2024", "AL - JAN/2024"
			for i := 0; ; {
				j := strings.Index(title[i:], n)
				if j < 0 {
					break
				}
				j += i
				after := strings.TrimLeft(title[j+len(n):], " ")
				rest := strings.TrimLeft(after, " -")
				if (j == 0 || title[j-1] == ' ') && strings.HasPrefix(after, "-") && sicroMonthPattern.FindStringIndex(rest) != nil &&
					sicroMonthPattern.FindStringIndex(rest)[0] == 0 && len(n) > len(place) {
					uf, place = st, n
				}
				i = j + 1
			}
		}
	}
	return uf, place
}

// placeState tells the state of a locality: the first of a capital's
// name, a state's name or a UF standing as a word of its own ("PE -
// RECIFE") that the text after "LOCALIDADE" holds (the title rows below
// it may name other places).
func placeState(s string) (uf, place string) {
	at := len(s) + 1
	try := func(name, st string) {
		if i := wordIndex(s, name); i >= 0 && (i < at || i == at && len(name) > len(place)) {
			at, uf, place = i, st, name
		}
	}
	for name, st := range capitals {
		try(name, st)
	}
	for st, name := range domain.States {
		try(NormalizeName(name), st)
		try(st, st)
	}
	return uf, place
}

// wordIndex returns where s holds w with no letter on either side, or -1.
func wordIndex(s, w string) int {
	letter := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80 }
	for i := 0; i <= len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return -1
		}
		j += i
		end := j + len(w)
		if (j == 0 || !letter(s[j-1])) && (end == len(s) || !letter(s[end])) {
			return j
		}
		i = j + 1
	}
	return -1
}

// said writes what the titles say of the state: "PA (BELEM)".
func (t TitleWord) said() string {
	if t.Place != "" && t.Place != t.State {
		return t.State + " (" + t.Place + ")"
	}
	return t.State
}

// nameWord is what a file's name says: state, month and regime, each empty
// (nil) when it says none.
type nameWord struct {
	State, Month string
	Regime       *domain.Regime
}

// sicroNamePattern finds the state and month in a name as DNIT publishes
// it: "AL 01-2024 Relatório Sintético de Materiais.xlsx".
var sicroNamePattern = regexp.MustCompile(`^([A-Z]{2})[ _-]+(\d{2})[-_ ]?(\d{4})\b`)

// readName reads what a bank file's name says of itself.
func readName(path string) nameWord {
	var w nameWord
	base := strings.ToUpper(filepath.Base(path))
	if m := sinapiNamePattern.FindStringSubmatch(base); m != nil && domain.ValidState(m[1]) {
		w.State, w.Month = m[1], m[3]+"/"+m[2]
	} else if m := sicroNamePattern.FindStringSubmatch(NormalizeName(filepath.Base(path))); m != nil && domain.ValidState(m[1]) {
		w.State, w.Month = m[1], m[2]+"/"+m[3]
	}
	if !domain.ValidMonth(w.Month) {
		w.Month = ""
	}
	if r, ok := SinapiRegimeFromName(path); ok {
		w.Regime = &r
	}
	return w
}

// checkOwnWord checks what the title rows of f say against its name and
// the import (its state, month and the imposed regime, as f carries them):
// a contradiction is an error naming both values. The import's state and
// month are left to the caller when vsImport is false (SICRO, whose titles
// must state them). It returns what the titles say.
func checkOwnWord(f *File, vsImport bool) (TitleWord, error) {
	t := ReadTitle(f.TitleText())
	n := readName(f.Name)
	if t.State != "" {
		if n.State != "" && n.State != t.State {
			return t, f.Errorf(0, "the file says state %s, the file name says %s", t.said(), n.State)
		}
		if vsImport && f.State != "" && f.State != t.State {
			return t, f.Errorf(0, "the file says state %s, the import (--state) says %s", t.said(), f.State)
		}
	}
	if t.Month != "" {
		if n.Month != "" && n.Month != t.Month {
			return t, f.Errorf(0, "the file says month %s, the file name says %s", t.Month, n.Month)
		}
		if vsImport && f.Month != "" && f.Month != t.Month {
			return t, f.Errorf(0, "the file says month %s, the import (--month) says %s", t.Month, f.Month)
		}
	}
	if t.Regime != nil {
		if n.Regime != nil && *n.Regime != *t.Regime {
			return t, f.Errorf(0, "the file says %s, the file name says %s", *t.Regime, *n.Regime)
		}
		if f.Regime != nil && *f.Regime != *t.Regime {
			return t, f.Errorf(0, "the file says %s, the import (--regime) says %s", *t.Regime, *f.Regime)
		}
	}
	if t.WithoutCharges {
		return t, f.Errorf(0, "the file says its prices are without labour charges (sem encargos sociais); an edition holds prices with them")
	}
	return t, nil
}

// TitleSays returns what the title rows of the file at path say, the file
// being one of the bank's (its header found as Importer.Add finds it); a
// file whose header no format of the bank knows says nothing.
func (b Bank) TitleSays(ctx context.Context, path string, l Limits) (TitleWord, error) {
	fh, err := os.Open(path)
	if err != nil {
		return TitleWord{}, badFile(path, 0, "%v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return TitleWord{}, badFile(path, 0, "%v", err)
	}
	f, _, err := newFile(ctx, path, fh, st.Size(), b.Formats, l.withDefaults())
	if err == errNoHeader {
		return TitleWord{}, nil
	}
	if err != nil {
		return TitleWord{}, err
	}
	defer f.src.close()
	return ReadTitle(f.TitleText()), nil
}
