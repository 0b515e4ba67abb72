package v2_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/domain"
)

const (
	profile = base + "/company/profile"
	logo    = profile + "/logo"
)

func profileBody(id, attrs string) string {
	return `{"data":{"type":"company-profiles","id":"` + id + `","attributes":` + attrs + `}}`
}

func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCompanyProfile: the profile is empty until given; PATCH sets the
// attributes it names (the CNPJ stored as 14 digits and printed
// punctuated); the logo goes in as an image and comes back byte for byte;
// another company sees none of it.
func TestCompanyProfile(t *testing.T) {
	h := apitest.New(t)
	a, b := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br")

	doc := expect(t, h.Do("GET", profile, a.Token, ""), 200)
	if d := data(t, doc); d["type"] != "company-profiles" || d["id"] != a.CompanyID {
		t.Errorf("type and id: %v", d)
	}
	at := attrs(t, doc)
	if at["legal_name"] != "" || at["cnpj"] != "" || at["logo_media_type"] != nil || at["updated_at"] != nil || num(t, at["logo_size"]) != "0" {
		t.Errorf("an empty profile: %v", at)
	}

	at = attrs(t, expect(t, h.Do("PATCH", profile, a.Token, profileBody(a.CompanyID,
		`{"legal_name":"Alfa Engenharia Ltda","cnpj":"12.345.678/0001-95","address":"Rua da Bahia, 1000, Belo Horizonte/MG",`+
			`"engineer_name":"Ana Souza","engineer_registry":"CREA-MG 123456/D"}`)), 200))
	want := map[string]string{"legal_name": "Alfa Engenharia Ltda", "cnpj": "12345678000195", "cnpj_formatted": "12.345.678/0001-95",
		"address": "Rua da Bahia, 1000, Belo Horizonte/MG", "engineer_name": "Ana Souza", "engineer_registry": "CREA-MG 123456/D"}
	for k, v := range want {
		if at[k] != v {
			t.Errorf("%s = %v, want %q", k, at[k], v)
		}
	}
	if str(at["updated_at"]) == "" {
		t.Errorf("updated_at not set: %v", at)
	}
	// Plain JSON too; only what is named changes; null clears.
	at = attrs(t, expect(t, h.Do("PATCH", profile, a.Token, `{"address":null,"cnpj":"11222333000181"}`), 200))
	if at["address"] != "" || at["cnpj"] != "11222333000181" || at["legal_name"] != "Alfa Engenharia Ltda" {
		t.Errorf("after a plain patch: %v", at)
	}

	img := testPNG(t, 300, 100)
	at = attrs(t, expect(t, h.Do("PUT", logo, a.Token, string(img), "Content-Type", "image/png"), 200))
	if at["logo_media_type"] != "image/png" || num(t, at["logo_size"]) != strconv.Itoa(len(img)) {
		t.Errorf("after the logo: %v", at)
	}
	r := h.Do("GET", logo, a.Token, "", "Accept", "image/*")
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || !bytes.Equal(r.Body, img) ||
		r.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("GET logo: %d %v (%d bytes)", r.Status, r.Header, len(r.Body))
	}
	// An SVG replaces it; its media type parameters are fine.
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>`
	expect(t, h.Do("PUT", logo, a.Token, svg, "Content-Type", "image/svg+xml; charset=utf-8"), 200)
	r = h.Do("GET", logo, a.Token, "")
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" || string(r.Body) != svg {
		t.Errorf("GET the SVG logo: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}

	// Company B: its own empty profile, no logo, and no way to A's.
	at = attrs(t, expect(t, h.Do("GET", profile, b.Token, ""), 200))
	if at["legal_name"] != "" || at["logo_media_type"] != nil || str(data(t, expect(t, h.Do("GET", profile, b.Token, ""), 200))["id"]) != b.CompanyID {
		t.Errorf("company B sees %v", at)
	}
	if e := errorsOf(t, h.Do("GET", logo, b.Token, ""), 404); e[0].Code != "not_found" {
		t.Errorf("B's logo: %v", e)
	}
	errorsOf(t, h.Do("DELETE", logo, b.Token, ""), 404)
	// B may not write A's profile by naming its id.
	errorsOf(t, h.Do("PATCH", profile, b.Token, profileBody(a.CompanyID, `{"legal_name":"Beta"}`)), 409)
	if at := attrs(t, expect(t, h.Do("GET", profile, a.Token, ""), 200)); at["legal_name"] != "Alfa Engenharia Ltda" {
		t.Errorf("A's profile after B's attempt: %v", at)
	}

	// The export carries the profile with its logo.
	exp := attrs(t, expect(t, h.Do("GET", base+"/my_database/export", a.Token, ""), 200))
	if p, ok := exp["profile"].(obj); !ok || p["legal_name"] != "Alfa Engenharia Ltda" || p["logo_type"] != "image/svg+xml" ||
		p["logo"] != base64.StdEncoding.EncodeToString([]byte(svg)) {
		t.Errorf("the export's profile: %v", exp["profile"])
	}
	if _, ok := attrs(t, expect(t, h.Do("GET", base+"/my_database/export", b.Token, ""), 200))["profile"]; ok {
		t.Errorf("company B's export has a profile")
	}

	// DELETE removes the logo, keeps the rest.
	if r := h.Do("DELETE", logo, a.Token, ""); r.Status != 204 {
		t.Fatalf("DELETE logo: %d %s", r.Status, r.Body)
	}
	errorsOf(t, h.Do("GET", logo, a.Token, ""), 404)
	at = attrs(t, expect(t, h.Do("GET", profile, a.Token, ""), 200))
	if at["logo_media_type"] != nil || num(t, at["logo_size"]) != "0" || at["legal_name"] != "Alfa Engenharia Ltda" {
		t.Errorf("after DELETE: %v", at)
	}
	// No token: 401.
	if r := h.Do("GET", profile, "", ""); r.Status != 401 {
		t.Errorf("without a token: %d", r.Status)
	}
}

// TestCompanyProfileErrors: every bad attribute named at once (422) and
// nothing written; a logo over the cap is 413, read no further; a logo of
// another type 415; bytes that are not the image they claim, or an SVG
// with a script, 422 on /logo.
func TestCompanyProfileErrors(t *testing.T) {
	h := apitest.New(t)
	a := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	expect(t, h.Do("PATCH", profile, a.Token, `{"legal_name":"Alfa"}`), 200)

	long := strings.Repeat("x", 501)
	got := errorsOf(t, h.Do("PATCH", profile, a.Token, profileBody(a.CompanyID,
		`{"legal_name":"`+long[:201]+`","cnpj":"12.345.678/0001-94","address":"`+long+`","engineer_name":"`+long[:201]+
			`","engineer_registry":"`+long[:61]+`"}`)), 422)
	var ptrs []string
	for _, e := range got {
		ptrs = append(ptrs, e.Pointer)
	}
	wantPtrs := []string{"/data/attributes/legal_name", "/data/attributes/cnpj", "/data/attributes/address",
		"/data/attributes/engineer_name", "/data/attributes/engineer_registry"}
	if d := cmp.Diff(sortedCopy(wantPtrs), sortedCopy(ptrs)); d != "" {
		t.Errorf("pointers (-want +got):\n%s", d)
	}
	// An attribute costdb does not know is refused as on every v2 write.
	if e := errorsOf(t, h.Do("PATCH", profile, a.Token, `{"nickname":"x"}`), 422); e[0].Pointer != "/nickname" {
		t.Errorf("an unknown attribute: %v", e)
	}
	// Repeated digits, wrong length: 422 on cnpj.
	for _, c := range []string{"11.111.111/1111-11", "00000000000000", "1234567800019", "12.345.678/0001-9X"} {
		e := errorsOf(t, h.Do("PATCH", profile, a.Token, `{"cnpj":"`+c+`"}`), 422)
		if len(e) != 1 || e[0].Pointer != "/cnpj" {
			t.Errorf("cnpj %s: %v", c, e)
		}
	}
	if at := attrs(t, expect(t, h.Do("GET", profile, a.Token, ""), 200)); at["legal_name"] != "Alfa" || at["cnpj"] != "" {
		t.Errorf("refused patches wrote: %v", at)
	}

	// Over the cap by one byte: 413.
	big := append(testPNG(t, 10, 10), make([]byte, domain.MaxLogoBytes)...)[:domain.MaxLogoBytes+1]
	if e := errorsOf(t, h.Do("PUT", logo, a.Token, string(big), "Content-Type", "image/png"), 413); e[0].Code != "too_large" {
		t.Errorf("a logo over the cap: %v", e)
	}
	errorsOf(t, h.Do("GET", logo, a.Token, ""), 404) // nothing was written
	// Exactly at the cap: taken (a PNG decoder stops at its end).
	atCap := big[:domain.MaxLogoBytes]
	if at := attrs(t, expect(t, h.Do("PUT", logo, a.Token, string(atCap), "Content-Type", "image/png"), 200)); num(t, at["logo_size"]) != strconv.Itoa(domain.MaxLogoBytes) {
		t.Errorf("a logo at the cap: %v", at)
	}
	if r := h.Do("DELETE", logo, a.Token, ""); r.Status != 204 {
		t.Fatalf("DELETE: %d", r.Status)
	}
	errorsOf(t, h.Do("PUT", logo, a.Token, "GIF89a", "Content-Type", "image/gif"), 415)
	errorsOf(t, h.Do("PUT", logo, a.Token, `{"logo":"x"}`), 415)
	for name, c := range map[string]struct{ body, typ string }{
		"jpeg called png":  {"\xff\xd8\xff\xe0 not a png", "image/png"},
		"png called jpeg":  {string(testPNG(t, 4, 4)), "image/jpeg"},
		"svg with script":  {`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`, "image/svg+xml"},
		"svg remote image": {`<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png"/></svg>`, "image/svg+xml"},
		"html as svg":      {`<html><body>x</body></html>`, "image/svg+xml"},
	} {
		e := errorsOf(t, h.Do("PUT", logo, a.Token, c.body, "Content-Type", c.typ), 422)
		if len(e) != 1 || e[0].Pointer != "/logo" {
			t.Errorf("%s: %v", name, e)
		}
	}
	errorsOf(t, h.Do("GET", logo, a.Token, ""), 404) // nothing was written
	// An Accept that allows neither an image nor JSON:API: 406.
	errorsOf(t, h.Do("GET", logo, a.Token, "", "Accept", "text/html"), 406)
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestBudgetARTAttributes: art and issue_date are budget attributes: set
// on create, shown, changed and cleared by PATCH, refused with every other
// bad attribute at once.
func TestBudgetARTAttributes(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	a := attrs(t, f.doc)
	if a["art"] != "" || a["issue_date"] != "" {
		t.Errorf("a budget without them: art %v, issue_date %v", a["art"], a["issue_date"])
	}
	path := budgets + "/" + f.id
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, `{"art":"MG20260012345","issue_date":"2026-11-28"}`), 200))
	if a["art"] != "MG20260012345" || a["issue_date"] != "2026-11-28" {
		t.Errorf("after PATCH: %v %v", a["art"], a["issue_date"])
	}
	a = attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
	if a["art"] != "MG20260012345" || a["issue_date"] != "2026-11-28" {
		t.Errorf("GET: %v %v", a["art"], a["issue_date"])
	}
	e := errorsOf(t, h.Do("PATCH", path, tok, `{"art":"`+strings.Repeat("1", 61)+`","issue_date":"2026-13-01","client":"`+strings.Repeat("c", 256)+`"}`), 422)
	var ptrs []string
	for _, x := range e {
		ptrs = append(ptrs, x.Pointer)
	}
	if d := cmp.Diff([]string{"/art", "/client", "/issue_date"}, sortedCopy(ptrs)); d != "" {
		t.Errorf("pointers (-want +got):\n%s", d)
	}
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, `{"art":null,"issue_date":""}`), 200))
	if a["art"] != "" || a["issue_date"] != "" {
		t.Errorf("cleared: %v %v", a["art"], a["issue_date"])
	}
	created := create(t, h, budgets, tok, `{"code":"ART-1","description":"Com ART","location":"MG","art":"RRT 123","issue_date":"2027-01-02"}`)
	if a := attrs(t, created); a["art"] != "RRT 123" || a["issue_date"] != "2027-01-02" {
		t.Errorf("created: %v %v", a["art"], a["issue_date"])
	}
}

// TestLogoOverCapUnannounced: a logo sent without Content-Length (chunked)
// is read through the bounded reader and refused at the cap: 413.
func TestLogoOverCapUnannounced(t *testing.T) {
	h := apitest.New(t)
	a := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	body := io.MultiReader(bytes.NewReader(testPNG(t, 10, 10)), io.LimitReader(zeros{}, 4*domain.MaxLogoBytes))
	req, err := http.NewRequest("PUT", h.URL+logo, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1 // unknown: sent chunked
	req.Header.Set("Content-Type", "image/png")
	req.Header.Set("Authorization", "Bearer "+a.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || !strings.Contains(string(b), "too_large") {
		t.Errorf("a chunked logo over the cap: %d %s", resp.StatusCode, b)
	}
	errorsOf(t, h.Do("GET", logo, a.Token, ""), 404)
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
