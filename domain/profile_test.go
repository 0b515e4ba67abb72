package domain_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/domain"
)

func TestNormalizeCNPJ(t *testing.T) {
	good := []struct{ in, want string }{
		{"12.345.678/0001-95", "12345678000195"},
		{"12345678000195", "12345678000195"},
		{" 11.222.333/0001-81 ", "11222333000181"},
		{"00000000000191", "00000000000191"},     // Banco do Brasil: a zero first digit
		{"12.ABC.345/01DE-35", "12ABC34501DE35"}, // the alphanumeric CNPJ's published example
		{"12abc34501de35", "12ABC34501DE35"},
	}
	for _, c := range good {
		got, err := domain.NormalizeCNPJ(c.in)
		if err != nil || got != c.want {
			t.Errorf("NormalizeCNPJ(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	bad := []struct{ in, msg string }{
		{"12.345.678/0001-94", "check digits"},
		{"12.345.678/0001-05", "check digits"},
		{"12345678000159", "check digits"},
		{"12ABC34501DE36", "check digits"},
		{"1234567800019", "14 characters"},
		{"123456780001955", "14 characters"},
		{"12.345.678.0001-95", "14 characters"},
		{"12-345-678/0001-95", "14 characters"},
		{"1234567800019X", "14 characters"}, // check digits are digits
		{"12345678/0001-95", "14 characters"},
		{"", "14 characters"},
	}
	for d := '0'; d <= '9'; d++ {
		bad = append(bad, struct{ in, msg string }{strings.Repeat(string(d), 14), "repeated"})
	}
	bad = append(bad, struct{ in, msg string }{"00.000.000/0000-00", "repeated"})
	for _, c := range bad {
		got, err := domain.NormalizeCNPJ(c.in)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("NormalizeCNPJ(%q) = %q, %v; want an error saying %q", c.in, got, err, c.msg)
		}
	}
}

func TestFormatCNPJ(t *testing.T) {
	if got := domain.FormatCNPJ("12345678000195"); got != "12.345.678/0001-95" {
		t.Errorf("FormatCNPJ = %q", got)
	}
	if got := domain.FormatCNPJ("123"); got != "123" {
		t.Errorf("FormatCNPJ(123) = %q; want it as it is", got)
	}
	n, _ := domain.NormalizeCNPJ(domain.FormatCNPJ("11222333000181"))
	if n != "11222333000181" {
		t.Errorf("FormatCNPJ does not read back: %q", n)
	}
}

func TestCompanyProfileValidate(t *testing.T) {
	p := domain.CompanyProfile{LegalName: "  Construtora Exemplo Ltda ", CNPJ: "12.345.678/0001-95",
		Address: "Rua A, 1", EngineerName: "Ana", EngineerRegistry: "CREA-MG 123456/D"}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.CNPJ != "12345678000195" || p.LegalName != "Construtora Exemplo Ltda" {
		t.Errorf("normalised to %q, %q", p.CNPJ, p.LegalName)
	}
	if err := (&domain.CompanyProfile{}).Validate(); err != nil {
		t.Errorf("an empty profile: %v; want none (every field may be empty)", err)
	}
	bad := domain.CompanyProfile{LegalName: strings.Repeat("x", domain.MaxLegalNameLen+1), CNPJ: "11.111.111/1111-11",
		Address: strings.Repeat("é", domain.MaxAddressLen+1), EngineerName: strings.Repeat("n", domain.MaxEngineerNameLen+1),
		EngineerRegistry: strings.Repeat("r", domain.MaxEngineerRegistryLen+1)}
	err := bad.Validate()
	e, ok := err.(*domain.Error)
	if !ok || e.Code != domain.EINVALID {
		t.Fatalf("Validate = %v; want EINVALID", err)
	}
	got := map[string]bool{}
	for _, f := range e.Fields {
		got[f.Field] = true
	}
	for _, f := range []string{"/legal_name", "/cnpj", "/address", "/engineer_name", "/engineer_registry"} {
		if !got[f] {
			t.Errorf("no error on %s; got %v", f, e.Fields)
		}
	}
	// The caps count characters, not bytes.
	ok2 := domain.CompanyProfile{Address: strings.Repeat("é", domain.MaxAddressLen)}
	if err := ok2.Validate(); err != nil {
		t.Errorf("an address of %d characters: %v", domain.MaxAddressLen, err)
	}
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const svgLogo = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#036"/></linearGradient></defs>
  <rect width="40" height="20" fill="url(#g)" style="fill: url( '#g' )"/>
  <use xlink:href="#g"/>
  <text x="2" y="14">CE</text>
</svg>`

func TestCheckLogo(t *testing.T) {
	okCases := []struct {
		name string
		data []byte
		typ  string
	}{
		{"png", pngOf(t, 120, 40), domain.LogoPNG},
		{"jpeg", jpegOf(t, 120, 40), domain.LogoJPEG},
		{"svg", []byte(svgLogo), domain.LogoSVG},
		{"png at the side cap", pngOf(t, domain.MaxLogoSide, 1), domain.LogoPNG},
	}
	for _, c := range okCases {
		if err := domain.CheckLogo("/logo", c.data, c.typ); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	p := pngOf(t, 10, 10)
	big := append(append([]byte{}, p...), make([]byte, domain.MaxLogoBytes)...)
	badCases := []struct {
		name string
		data []byte
		typ  string
		msg  string
	}{
		{"empty", nil, domain.LogoPNG, "empty"},
		{"too big", big, domain.LogoPNG, "larger than"},
		{"gif type", p, "image/gif", "must be image/png"},
		{"png called jpeg", p, domain.LogoJPEG, "not a JPEG"},
		{"jpeg called png", jpegOf(t, 8, 8), domain.LogoPNG, "not a PNG"},
		{"text called png", []byte("hello"), domain.LogoPNG, "not a PNG"},
		{"truncated png", p[:len(p)-20], domain.LogoPNG, "whole PNG"},
		{"png too wide", pngOf(t, domain.MaxLogoSide+1, 1), domain.LogoPNG, "sides"},
		{"png called svg", p, domain.LogoSVG, "SVG"},
		{"html called svg", []byte(`<html><body/></html>`), domain.LogoSVG, "root must be <svg>"},
		{"two roots", []byte(`<svg></svg><svg></svg>`), domain.LogoSVG, "root"},
		{"not closed", []byte(`<svg><rect></svg>`), domain.LogoSVG, "well-formed"},
		{"script", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), domain.LogoSVG, "<script>"},
		{"SCRIPT in a group", []byte(`<svg><g><SCRIPT>x</SCRIPT></g></svg>`), domain.LogoSVG, "<SCRIPT>"},
		{"foreignObject", []byte(`<svg><foreignObject><div/></foreignObject></svg>`), domain.LogoSVG, "foreignObject"},
		{"onload", []byte(`<svg onload="alert(1)"/>`), domain.LogoSVG, "event"},
		{"remote image", []byte(`<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>`), domain.LogoSVG, "outside itself"},
		{"remote use", []byte(`<svg><use href="http://evil.example/a.svg#x"/></svg>`), domain.LogoSVG, "outside itself"},
		{"data href", []byte(`<svg><image href="data:image/svg+xml;base64,PHN2Zy8+"/></svg>`), domain.LogoSVG, "outside itself"},
		{"javascript link", []byte(`<svg><a href="javascript:alert(1)"><rect/></a></svg>`), domain.LogoSVG, "outside itself"},
		{"remote url in fill", []byte(`<svg><rect fill="url(https://evil.example/p.svg#g)"/></svg>`), domain.LogoSVG, "url("},
		{"remote url in style", []byte(`<svg><style>rect { fill: url(http://evil.example/x) }</style></svg>`), domain.LogoSVG, "url("},
		{"css import", []byte(`<svg><style>@import "http://evil.example/a.css";</style></svg>`), domain.LogoSVG, "outside itself"},
		{"animated handler", []byte(`<svg><rect><set attributeName="onmouseover" to="alert(1)"/></rect></svg>`), domain.LogoSVG, "animate"},
		{"animated link", []byte(`<svg><a><animate attributeName="xlink:href" values="https://evil.example"/></a></svg>`), domain.LogoSVG, "animate"},
		{"doctype entity", []byte(`<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>`), domain.LogoSVG, "DOCTYPE"},
		{"processing instruction", []byte(`<?xml-stylesheet href="http://evil.example/a.css"?><svg/>`), domain.LogoSVG, "processing"},
	}
	for _, c := range badCases {
		err := domain.CheckLogo("/logo", c.data, c.typ)
		e, ok := err.(*domain.Error)
		if !ok || e.Code != domain.EINVALID || len(e.Fields) != 1 || e.Fields[0].Field != "/logo" ||
			!strings.Contains(e.Fields[0].Message, c.msg) {
			t.Errorf("%s: CheckLogo = %v; want EINVALID on /logo saying %q", c.name, err, c.msg)
		}
	}
}

func TestBudgetARTAndIssueDate(t *testing.T) {
	b := frozenBudget()
	b.ART, b.IssueDate = "MG20260012345", "2026-11-28"
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	b.ART, b.IssueDate = strings.Repeat("1", domain.MaxARTLen+1), "28/11/2026"
	e, ok := b.Validate().(*domain.Error)
	if !ok || len(e.Fields) != 2 || e.Fields[0].Field != "/art" || e.Fields[1].Field != "/issue_date" {
		t.Fatalf("Validate = %v; want errors on /art and /issue_date", e)
	}
	for _, d := range []string{"2026-02-30", "2026-1-05", "2026-01-05T00:00:00Z", "20260105"} {
		b.ART, b.IssueDate = "", d
		if b.Validate() == nil {
			t.Errorf("issue date %q accepted", d)
		}
	}
}

func frozenBudget() *domain.Budget {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &domain.Budget{ID: "b1", CompanyID: "c1", UserID: "u1", DepartmentID: "d1", Code: "OBRA-1",
		Description: "Escola", Client: "Prefeitura", State: "MG", BDI: decimal.RequireFromString("25.5"),
		BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate, NodeSeq: 1,
		Items:     []domain.BudgetNode{{ID: "n1", Kind: domain.NodeStage, Description: "Serviços preliminares"}},
		CreatedAt: at, UpdatedAt: at}
}

// TestFreezeHashUnchangedByARTFields holds the frozen encoding of a budget
// without ART and issue date to the bytes it had before those fields
// existed: the hash below was computed by the code of the commit before
// them (0245019), so versions frozen since keep matching what a budget
// frozen now gives. With the fields set, they are in the content (a
// version keeps the ART and date of its freeze).
func TestFreezeHashUnchangedByARTFields(t *testing.T) {
	content, hash, err := domain.Freeze(frozenBudget(), domain.NewPriceSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if want := "c676819f4a2130fe9329720fe2ab39704f8cde723563436f6da7d7171d8ca29e"; hash != want {
		t.Errorf("hash of a budget without ART = %s; want %s (as before the fields)\n%s", hash, want, content)
	}
	b := frozenBudget()
	b.ART, b.IssueDate = "MG20260012345", "2026-11-28"
	content, hash2, err := domain.Freeze(b, domain.NewPriceSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if hash2 == hash || !bytes.Contains(content, []byte(`"ART":"MG20260012345","IssueDate":"2026-11-28"`)) {
		t.Errorf("the ART and date are not in the frozen content: %s", content)
	}
	v := &domain.BudgetVersion{Number: 1, Hash: hash2, Content: content}
	got, _, err := v.Open()
	if err != nil || got.ART != "MG20260012345" || got.IssueDate != "2026-11-28" {
		t.Errorf("Open = %+v, %v; want the frozen ART and date", got, err)
	}
}
