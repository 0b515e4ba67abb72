package v2_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// reimportSinapiMG imports the sample's SINAPI MG 08/2026 again, recorded
// as read from one file of the given bytes' record, with resource 34586
// (não desonerado) at price when price is not empty.
func reimportSinapiMG(t *testing.T, h *apitest.Harness, file domain.SourceFile, price string) {
	t.Helper()
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eds {
		if e.Edition.Bank != "SINAPI" {
			continue
		}
		e.Edition.Files = []domain.SourceFile{file}
		for _, r := range e.Resources {
			if r.Code == "34586" && price != "" {
				r.Prices.PND = domain.Dec(price)
			}
		}
		if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVersionVerification: a version's content is its canonical encoding
// (SHA-256 = the version's hash); its verification against the editions
// held says which editions record no files, is OK for a version whose
// files and records are unchanged, and names the file, the record and
// every figure once a price of its edition changed; another company's
// version is 404.
func TestVersionVerification(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	vpath := budgets + "/" + f.id + "/versions"
	v1 := attrs(t, expect(t, h.Do("POST", vpath, tok, ""), 201))

	r := h.Do("GET", vpath+"/1/content", tok, "")
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("content: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256(r.Body)); sum != str(v1["hash"]) || r.Header.Get("X-Content-SHA256") != sum {
		t.Errorf("content's SHA-256 %s, header %s, version hash %s", sum, r.Header.Get("X-Content-SHA256"), v1["hash"])
	}
	if !strings.Contains(r.Header.Get("Content-Disposition"), "-v1") {
		t.Errorf("content's file name: %s", r.Header.Get("Content-Disposition"))
	}

	// The sample editions were imported without files: records compared,
	// files unverifiable.
	c := attrs(t, expect(t, h.Do("GET", vpath+"/1/verification", tok, ""), 200))
	if c["ok"] != false || fmt.Sprint(c["unverifiable_editions"]) != "[SINAPI MG 08/2026]" || len(c["differences"].([]any)) != 0 ||
		num(t, c["records_checked"]) == "0" || num(t, c["total_with_bdi"]) != num(t, c["recomputed_total_with_bdi"]) {
		t.Errorf("verification of a version without files: %v", c)
	}

	// Imported again from a recorded file, then frozen: OK.
	file := domain.SourceFile{Name: "SINAPI_Preco_Ref_Insumos_MG_202608_NaoDesonerado.csv", Size: 1000, SHA256: strings.Repeat("a1", 32),
		Titles: []string{"SINAPI - MG - 08/2026"}}
	reimportSinapiMG(t, h, file, "")
	expect(t, h.Do("POST", vpath, tok, ""), 201)
	c = attrs(t, expect(t, h.Do("GET", vpath+"/2/verification", tok, ""), 200))
	if c["ok"] != true || len(c["differences"].([]any)) != 0 || len(c["unverifiable_editions"].([]any)) != 0 {
		t.Errorf("verification of an untouched version: %v", c)
	}
	if files := c["files"].([]any); len(files) != 1 || files[0].(obj)["verdict"] != "ok" || files[0].(obj)["name"] != file.Name {
		t.Errorf("files: %v", files)
	}

	// The file published again with one price changed.
	changed := file
	changed.Size, changed.SHA256 = 1001, strings.Repeat("b2", 32)
	reimportSinapiMG(t, h, changed, "3.50")
	c = attrs(t, expect(t, h.Do("GET", vpath+"/2/verification", tok, ""), 200))
	if c["ok"] != false || c["files"].([]any)[0].(obj)["verdict"] != "changed" {
		t.Errorf("after the change: %v", c)
	}
	var figures []string
	for _, d := range c["differences"].([]any) {
		o := d.(obj)
		figures = append(figures, fmt.Sprintf("%s|%s|%s|%s", str(o["line"]), str(o["code"]), str(o["figure"]), str(o["found"])))
	}
	got := strings.Join(figures, "\n")
	for _, want := range []string{"|34586|price (não desonerado)|3.5", "2.1|34586|unit price|3.5", "2.1|34586|total with BDI|", "||budget total with BDI|"} {
		if !strings.Contains(got, want) {
			t.Errorf("differences lack %q:\n%s", want, got)
		}
	}
	if num(t, c["total_with_bdi"]) == num(t, c["recomputed_total_with_bdi"]) {
		t.Errorf("the total recomputed did not change: %v", c)
	}

	// Another company's version is not found.
	errorsOf(t, h.Do("GET", vpath+"/1/verification", f.other.Token, ""), 404)
	errorsOf(t, h.Do("GET", vpath+"/1/content", f.other.Token, ""), 404)
	errorsOf(t, h.Do("GET", vpath+"/9/content", tok, ""), 404)
}
