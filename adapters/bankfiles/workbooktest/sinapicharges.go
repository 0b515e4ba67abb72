package workbooktest

import "github.com/xuri/excelize/v2"

// SinapiCharges writes Caixa's "SINAPI - Composição de Encargos Sociais"
// of a state to path, its second title row title ("ACRE VIGÊNCIA A PARTIR
// DE 04/2013"). No real XLSX of Caixa's table was found (docs/decisions.md,
// "Labour charges tables"): the file is built in the layout its published
// PDFs show (bankfiles.ReadSinapiCharges), with figures of that order, not
// a state's published ones: every group's items add up to its subtotal
// and the groups to the total (sem desoneração: horista 111,51%,
// mensalista 69,68%; com: 82,48% and 46,33%).
func SinapiCharges(path, title string) error {
	x := excelize.NewFile()
	defer x.Close()
	sh := x.GetSheetName(0)
	rows := [][]any{
		{"SINAPI - COMPOSIÇÃO DE ENCARGOS SOCIAIS"},
		{title},
		{"ENCARGOS SOCIAIS SOBRE A MÃO DE OBRA"},
		{"CÓDIGO", "DESCRIÇÃO", "COM DESONERAÇÃO", nil, "SEM DESONERAÇÃO", nil},
		{nil, nil, "HORISTA %", "MENSALISTA %", "HORISTA %", "MENSALISTA %"},
	}
	for _, it := range sinapiChargesItems {
		rows = append(rows, []any{it[0], it[1], it[2], it[3], it[4], it[5]})
	}
	rows = append(rows, []any{}, []any{"Fonte: Caixa. Encargos sociais sobre a mão de obra."})
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := x.SetSheetRow(sh, cell, &r); err != nil {
			return err
		}
	}
	return x.SaveAs(path)
}

// sinapiChargesItems are the rows of the table: code, description, horista
// and mensalista com desoneração, horista and mensalista sem desoneração.
var sinapiChargesItems = [][6]string{
	{"A1", "INSS", "0,00%", "0,00%", "20,00%", "20,00%"},
	{"A2", "SESI", "1,50%", "1,50%", "1,50%", "1,50%"},
	{"A3", "SENAI", "1,00%", "1,00%", "1,00%", "1,00%"},
	{"A4", "INCRA", "0,20%", "0,20%", "0,20%", "0,20%"},
	{"A5", "SEBRAE", "0,60%", "0,60%", "0,60%", "0,60%"},
	{"A6", "Salário Educação", "2,50%", "2,50%", "2,50%", "2,50%"},
	{"A7", "Seguro Contra Acidentes de Trabalho", "3,00%", "3,00%", "3,00%", "3,00%"},
	{"A8", "FGTS", "8,00%", "8,00%", "8,00%", "8,00%"},
	{"A9", "SECONCI", "0,00%", "0,00%", "0,00%", "0,00%"},
	{"A", "Total", "16,80%", "16,80%", "36,80%", "36,80%"},
	{"B1", "Repouso Semanal Remunerado", "17,87%", "Não incide", "17,87%", "Não incide"},
	{"B2", "Feriados", "3,95%", "Não incide", "3,95%", "Não incide"},
	{"B3", "Auxílio - Enfermidade", "0,88%", "0,68%", "0,88%", "0,68%"},
	{"B4", "13º Salário", "10,83%", "8,33%", "10,83%", "8,33%"},
	{"B5", "Licença Paternidade", "0,07%", "0,06%", "0,07%", "0,06%"},
	{"B6", "Faltas Justificadas", "0,72%", "0,56%", "0,72%", "0,56%"},
	{"B7", "Dias de Chuvas", "1,55%", "Não incide", "1,55%", "Não incide"},
	{"B8", "Auxílio Acidente de Trabalho", "0,11%", "0,08%", "0,11%", "0,08%"},
	{"B9", "Férias Gozadas", "9,12%", "7,01%", "9,12%", "7,01%"},
	{"B10", "Salário Maternidade", "0,03%", "0,02%", "0,03%", "0,02%"},
	{"B", "Total", "45,13%", "16,74%", "45,13%", "16,74%"},
	{"C1", "Aviso Prévio Indenizado", "5,01%", "3,85%", "5,01%", "3,85%"},
	{"C2", "Aviso Prévio Trabalhado", "0,12%", "0,09%", "0,12%", "0,09%"},
	{"C3", "Férias Indenizadas", "3,22%", "2,48%", "3,22%", "2,48%"},
	{"C4", "Depósito Rescisão Sem Justa Causa", "3,76%", "2,90%", "3,76%", "2,90%"},
	{"C5", "Indenização Adicional", "0,42%", "0,32%", "0,42%", "0,32%"},
	{"C", "Total", "12,53%", "9,64%", "12,53%", "9,64%"},
	{"D1", "Reincidência de Grupo A sobre Grupo B", "7,58%", "2,81%", "16,61%", "6,16%"},
	{"D2", "Reincidência de Grupo A sobre Aviso Prévio Trabalhado e Reincidência do FGTS sobre Aviso Prévio Indenizado", "0,44%", "0,34%", "0,44%", "0,34%"},
	{"D", "Total", "8,02%", "3,15%", "17,05%", "6,50%"},
	{"TOTAL(A+B+C+D)", "", "82,48%", "46,33%", "111,51%", "69,68%"},
}
