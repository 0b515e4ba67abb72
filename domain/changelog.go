package domain

// ChangeKind is what a reference bank's change log says happened to a code
// in a month. Caixa's monthly "Relatório de Manutenções" (SINAPI) words each
// change in its column Manutenção; the importer maps those words to the
// kinds below.
type ChangeKind string

const (
	ChangeDeactivated  ChangeKind = "deactivated"  // DESATIVAÇÃO, COMPOSIÇÃO DESATIVADA
	ChangeSuspended    ChangeKind = "suspended"    // COMPOSIÇÃO SUSPENSA
	ChangeCreated      ChangeKind = "created"      // CRIAÇÃO DE INSUMO/COMPOSIÇÃO …
	ChangeDescription  ChangeKind = "description"  // ALTERAÇÃO DE DESCRIÇÃO
	ChangeUnit         ChangeKind = "unit"         // ALTERAÇÃO DE UNIDADE
	ChangeCoefficients ChangeKind = "coefficients" // ALTERAÇÃO DE ITENS/COEFICIENTES, DE FAMÍLIA/COEFICIENTE
	ChangePublished    ChangeKind = "published"    // INÍCIO DIVULGAÇÃO DE PREÇO/CUSTO/DA COMPOSIÇÃO
)

// ChangeKinds lists every kind, in the order the API documents them.
var ChangeKinds = []ChangeKind{ChangeDeactivated, ChangeSuspended, ChangeCreated, ChangeDescription, ChangeUnit, ChangeCoefficients, ChangePublished}

// ValidChangeKind reports whether k is one of ChangeKinds.
func ValidChangeKind(k ChangeKind) bool {
	for _, c := range ChangeKinds {
		if c == k {
			return true
		}
	}
	return false
}

// BankChange is one line of a bank's change log: in Month (MM/YYYY) the code
// Code, an insumo (Composition false) or a composition, went through Kind.
// Text is the bank's own words for the change, kept as written.
type BankChange struct {
	Bank        string
	Month       string // MM/YYYY, the month the change took effect
	State       string // "" when the log is national (SINAPI's is)
	Composition bool
	Code        string
	Description string
	Kind        ChangeKind
	Text        string
}
