// Command documents writes every client document of costdb (synthetic,
// analytic, ABC of resources and of services as XLSX, PDF and CSV, the ABC
// charts, the price-history chart and CSV, and a version comparison) for a
// demo budget over the bundled SINAPI MG 08/2026 sample, into a directory.
// It runs the use cases in process over a throwaway bbolt file, on a fixed
// clock, so that one source tree writes the same documents every time.
// render.sh renders page 1 of each to PNG under docs/documents/.
//
//	go run ./tools/documents -out DIR
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

func main() {
	out := flag.String("out", "", "directory to write the documents into (created)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: documents -out DIR")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "documents:", err)
		os.Exit(1)
	}
}

// The demo company's profile as its documents print it.
var profile = domain.CompanyProfile{
	LegalName: "Construtora Exemplo Ltda", CNPJ: "11222333000181",
	Address:      "Av. Afonso Pena, 1000, Centro, Belo Horizonte - MG, 30130-000",
	EngineerName: "Ana Souza", EngineerRegistry: "CREA-MG 123456/D",
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func run(out string) error {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "costdb-documents-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	st, err := boltstore.Open(filepath.Join(tmp, "costdb.db"), boltstore.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	svc := app.New(st, nil, app.Config{})
	clock := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	svc.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }

	eds, err := sample.Load()
	if err != nil {
		return err
	}
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	if _, err := svc.ImportEditions(ctx, data); err != nil {
		return err
	}
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Construtora Exemplo", Email: "orcamentos@exemplo.com.br", Name: "Ana Souza"})
	if err != nil {
		return err
	}
	p := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}

	line := func(kind domain.NodeKind, code, qty string) app.NodeInput {
		return app.NodeInput{Kind: kind, Bank: "SINAPI", Code: code, Quantity: dec(qty)}
	}
	stage := func(desc string, items ...app.NodeInput) app.NodeInput {
		return app.NodeInput{Kind: domain.NodeStage, Description: desc, Items: items}
	}
	work, supplyBDI := "buildings", dec("15.28")
	supply := []string{"n9"}
	// n1 Alvenaria: n2 89306, n3 89290, n4 89298, n5 89478; n6 Estrutura:
	// n7 89282, n8 89306 again (one service in the ABC of services);
	// n9 34586 (the supply line, differentiated BDI) sits in n6 too.
	pb, err := svc.CreateBudget(ctx, p, app.BudgetInput{
		Code: "ORC-001", Description: "Edifício residencial - bloco A", Client: "Prefeitura Municipal de Belo Horizonte", State: "MG",
		ART: "MG20260012345", IssueDate: "2026-09-01",
		BDI: dec("22.23"), Banks: []app.BankInput{{Name: "SINAPI", State: "MG", Month: "08/2026"}},
		Items: []app.NodeInput{
			stage("Alvenaria de vedação",
				line(domain.NodeComposition, "89306", "120.5"), line(domain.NodeComposition, "89290", "64.8"),
				line(domain.NodeComposition, "89298", "38.25"), line(domain.NodeComposition, "89478", "33.25")),
			stage("Estrutura e fornecimento",
				line(domain.NodeComposition, "89282", "45"), line(domain.NodeComposition, "89306", "18.4"),
				line(domain.NodeResource, "34586", "1000")),
		},
		TCU: &app.BDIPatch{WorkType: &work,
			Parts:    &domain.BDIParts{AC: dec("4"), S: dec("0.8"), R: dec("1.27"), DF: dec("1.23"), L: dec("7.4"), Taxes: dec("5.65")},
			SetParts: true, SupplyBDI: &supplyBDI, SupplyLines: &supply,
			SupplyParts:    &domain.BDIParts{AC: dec("3.45"), S: dec("0.48"), R: dec("0.85"), DF: dec("0.85"), L: dec("5.11"), Taxes: dec("3.65")},
			SetSupplyParts: true},
	})
	if err != nil {
		return fmt.Errorf("budget: %w", err)
	}
	id := pb.ID
	v1, err := svc.FreezeBudget(ctx, p, id)
	if err != nil {
		return err
	}
	// Version 2: one quantity changed and one line added.
	q := dec("140")
	if _, err := svc.UpdateBudgetNode(ctx, p, id, "n2", app.NodePatch{Quantity: &q}); err != nil {
		return err
	}
	if _, _, err := svc.AddBudgetNode(ctx, p, id, app.NodePlace{ParentID: "n6"}, line(domain.NodeComposition, "89298", "12")); err != nil {
		return err
	}
	if _, err := svc.FreezeBudget(ctx, p, id); err != nil {
		return err
	}
	if _, err := svc.UpdateCompanyProfile(ctx, p, app.ProfilePatch{LegalName: &profile.LegalName, CNPJ: &profile.CNPJ,
		Address: &profile.Address, EngineerName: &profile.EngineerName, EngineerRegistry: &profile.EngineerRegistry}); err != nil {
		return err
	}
	company, prof, err := svc.DocumentCompany(ctx, p)
	if err != nil {
		return err
	}
	doc := reports.Document{Company: company, Profile: prof}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	write := func(name string, fn func(w io.Writer) error) error {
		var buf bytes.Buffer
		if err := fn(&buf); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644)
	}

	// The live budget (version 2's tree).
	syn, err := svc.SyntheticReport(ctx, p, id)
	if err != nil {
		return err
	}
	ana, err := svc.AnalyticReport(ctx, p, id)
	if err != nil {
		return err
	}
	abc, err := svc.ABCReport(ctx, p, id, domain.ABCLimits{})
	if err != nil {
		return err
	}
	svcABC, err := svc.ABCServicesReport(ctx, p, id, domain.ABCLimits{})
	if err != nil {
		return err
	}
	// Version 1's synthetic report, as its own document.
	vctx := app.WithVersion(ctx, v1.Number)
	vsyn, err := svc.SyntheticReport(vctx, p, id)
	if err != nil {
		return err
	}
	vdoc := doc
	vdoc.Version = v1
	diff, err := svc.CompareVersions(ctx, p, id, 1, 2)
	if err != nil {
		return err
	}
	hist, err := svc.PriceHistory(ctx, app.HistoryQuery{Bank: "SINAPI", State: "MG", Code: "89306"})
	if err != nil {
		return err
	}

	steps := []struct {
		name string
		fn   func(w io.Writer) error
	}{
		{"sintetico.xlsx", func(w io.Writer) error { return reports.SyntheticXLSX(w, syn, doc) }},
		{"sintetico.pdf", func(w io.Writer) error { return reports.SyntheticPDF(w, syn, doc) }},
		{"sintetico.csv", func(w io.Writer) error { return reports.SyntheticCSV(w, syn) }},
		{"sintetico-versao-1.pdf", func(w io.Writer) error { return reports.SyntheticPDF(w, vsyn, vdoc) }},
		{"analitico.xlsx", func(w io.Writer) error { return reports.AnalyticXLSX(w, ana, doc) }},
		{"analitico.pdf", func(w io.Writer) error { return reports.AnalyticPDF(w, ana, doc) }},
		{"analitico.csv", func(w io.Writer) error { return reports.AnalyticCSV(w, ana) }},
		{"curva-abc.xlsx", func(w io.Writer) error { return reports.ABCXLSX(w, abc, doc) }},
		{"curva-abc.pdf", func(w io.Writer) error { return reports.ABCPDF(w, abc, doc) }},
		{"curva-abc.csv", func(w io.Writer) error { return reports.ABCCSV(w, abc) }},
		{"curva-abc.svg", func(w io.Writer) error { return reports.ABCSVG(w, abc) }},
		{"curva-abc-servicos.xlsx", func(w io.Writer) error { return reports.ABCXLSX(w, svcABC, doc) }},
		{"curva-abc-servicos.pdf", func(w io.Writer) error { return reports.ABCPDF(w, svcABC, doc) }},
		{"curva-abc-servicos.csv", func(w io.Writer) error { return reports.ABCCSV(w, svcABC) }},
		{"curva-abc-servicos.svg", func(w io.Writer) error { return reports.ABCSVG(w, svcABC) }},
		{"comparacao-versoes-1-2.csv", func(w io.Writer) error { return reports.PriceDiffCSV(w, diff) }},
		{"historico-precos-89306.csv", func(w io.Writer) error { return reports.PriceHistoryCSV(w, hist) }},
		{"historico-precos-89306.svg", func(w io.Writer) error { return reports.PriceHistorySVG(w, hist) }},
	}
	for _, s := range steps {
		if err := write(s.name, s.fn); err != nil {
			return err
		}
		fmt.Println(filepath.Join(out, s.name))
	}
	return nil
}
