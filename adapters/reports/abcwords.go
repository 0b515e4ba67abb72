package reports

import "github.com/costdb/costdb/domain"

// The ABC curve of a budget's resources and the one of its services are the
// same report (domain.ABCReport, Ranked says which) and every writer serves
// both: only the words change. abcWords are those words.
type abcWords struct {
	Title    string // "Curva ABC de insumos"
	Sheet    string // the XLSX sheet's name
	Items    string // "insumos", plural, lower case
	Item     string // "insumo"
	Price    string // the unit price's heading
	PDFPrice string // the same, short, for the PDF's column
	Total    string // the total's heading
	Cost     string // what the totals are, for the chart's subtitle
	FileStem string // the file name's report part (Filename)
	Bar      string // what a bar of the chart is (the left axis)
	Legend   string // the same, short enough for the legend
	Axis     string // the chart's horizontal axis
}

var (
	resourceWords = abcWords{Title: "Curva ABC de insumos", Sheet: "Curva ABC", Items: "insumos", Item: "insumo",
		Price: "Preço unitário", PDFPrice: "Preço unit.", Total: "Total", Cost: "Custo direto pelos insumos, sem BDI", FileStem: "curva-abc",
		Bar: "Custo do insumo (R$)", Legend: "Custo do insumo (R$)", Axis: "Insumos em ordem decrescente de custo (código)"}
	serviceWords = abcWords{Title: "Curva ABC de serviços", Sheet: "Curva ABC serviços", Items: "serviços", Item: "serviço",
		Price: "Preço unitário c/ BDI", PDFPrice: "Preço c/ BDI", Total: "Total c/ BDI", Cost: "Total dos serviços, com BDI", FileStem: "curva-abc-servicos",
		Bar: "Total do serviço c/ BDI (R$)", Legend: "Total c/ BDI (R$)", Axis: "Serviços em ordem decrescente de total com BDI (código)"}
)

// wordsOf are the words of a curve.
func wordsOf(r *domain.ABCReport) abcWords {
	if r.Services() {
		return serviceWords
	}
	return resourceWords
}

// ABCFileStem is the report part of an ABC curve's file name
// ("curva-abc", "curva-abc-servicos").
func ABCFileStem(r *domain.ABCReport) string { return wordsOf(r).FileStem }

// abcHeaderOf is the CSV and XLSX heading of a curve: abcHeader with the
// price and total named by what is ranked.
func abcHeaderOf(r *domain.ABCReport) []string {
	if !r.Services() {
		return abcHeader
	}
	h := append([]string(nil), abcHeader...)
	h[8], h[9] = serviceWords.Price, serviceWords.Total
	return h
}

// abcTypeName names what a row of a curve is: its resource type
// (TypeName) for the resources, "Composição" or "Insumo" for a service.
func abcTypeName(r *domain.ABCReport, row *domain.ABCRow) string {
	if r.Services() {
		return KindName(string(row.Kind))
	}
	return TypeName(row.Kind, row.ResourceType)
}

// abcCategoryName is the workbook's "Tipo" of a row of a curve: the cost
// category (CategoryName) of a resource, "Composição" or "Insumo" for a
// service.
func abcCategoryName(r *domain.ABCReport, row *domain.ABCRow) string {
	if r.Services() {
		return KindName(string(row.Kind))
	}
	return CategoryName(row.Category)
}
