package reports

import (
	"strings"

	"github.com/costdb/costdb/domain"
)

// The words a document prints for the domain's enumerations: the domain
// keeps its values in English (they are the API's), a client document
// names them in Portuguese. One function per enumeration, so that every
// document (XLSX, CSV, PDF) prints the same word; a value none of them
// knows is printed as it is (a new value shows up, never a blank).

// CategoryName names a cost category (the ABC curve's and the summary's
// "Tipo"): mão de obra, material, equipamento, serviços.
func CategoryName(c domain.CostCategory) string {
	switch c {
	case domain.CategoryLabor:
		return "Mão de obra"
	case domain.CategoryMaterial:
		return "Material"
	case domain.CategoryEquipment:
		return "Equipamento"
	case domain.CategoryServices:
		return "Serviços"
	}
	return string(c)
}

// BDIStatusName names where a BDI figure lies against the TCU range.
func BDIStatusName(s domain.BDIStatus) string {
	switch s {
	case domain.BDIBelow:
		return "Abaixo do 1º quartil"
	case domain.BDIInside:
		return "Dentro da faixa"
	case domain.BDIAbove:
		return "Acima do 3º quartil"
	}
	return string(s)
}

// ConfidenceName names how a TCU reference value is sourced.
func ConfidenceName(c domain.Confidence) string {
	switch c {
	case domain.ConfidenceConfirmed:
		return "confirmado"
	case domain.ConfidenceSingleSource:
		return "fonte única"
	case domain.ConfidenceUnconfirmed:
		return "não confirmado"
	}
	return string(c)
}

// ConfidencesName names the sourcing of a range's three values (1st
// quartile, average, 3rd quartile): one word when they agree, else the
// three joined by " / ".
func ConfidencesName(cs [3]domain.Confidence) string {
	if cs[0] == cs[1] && cs[1] == cs[2] {
		return ConfidenceName(cs[0])
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = ConfidenceName(c)
	}
	return strings.Join(out, " / ")
}

// BDIComponentName names a row of the TCU check (domain.CheckBDI's names:
// ac, sg, r, df, l and bdi).
func BDIComponentName(name string) string {
	switch name {
	case "ac":
		return "Administração central (AC)"
	case "sg":
		return "Seguros e garantias (S+G)"
	case "r":
		return "Riscos (R)"
	case "df":
		return "Despesas financeiras (DF)"
	case "l":
		return "Lucro (L)"
	case "bdi":
		return "BDI (sem CPRB)"
	}
	return name
}

// dateLabel writes an ISO date ("2026-08-20") as dd/mm/aaaa; anything else
// as it is.
func dateLabel(iso string) string {
	if len(iso) != 10 || iso[4] != '-' || iso[7] != '-' {
		return iso
	}
	return iso[8:] + "/" + iso[5:7] + "/" + iso[:4]
}

// ChangeName names what a comparison found for a line or stage.
func ChangeName(c domain.Change) string {
	switch c {
	case domain.Added:
		return "incluída"
	case domain.Removed:
		return "excluída"
	case domain.Changed:
		return "alterada"
	case domain.Unchanged:
		return "sem alteração"
	}
	return string(c)
}

// LabourChargesLabel says that a budget prices its bank labour with the
// company's own social charges (domain.Budget.LabourCharges): "Encargos
// sociais próprios: 71,25% (mão de obra repreçada)", every place the
// percentage has; "" when the budget takes the bank's prices.
func LabourChargesLabel(b *domain.Budget) string {
	if !b.LabourCharges.Valid {
		return ""
	}
	return "Encargos sociais próprios: " + pdfRate(b.LabourCharges.Decimal) + "% (mão de obra repreçada)"
}

// withLabourCharges appends LabourChargesLabel to a header line, when the
// budget has one.
func withLabourCharges(line string, b *domain.Budget) string {
	if l := LabourChargesLabel(b); l != "" {
		return line + " · " + l
	}
	return line
}
