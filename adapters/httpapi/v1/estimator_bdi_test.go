package v1_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The v1 counterpart of v2's budget-bdis, as decimal strings: edifícios,
// desonerado, AC 6.00 (above its 3rd quartile 5.50, flagged), the rest at
// their averages. By hand: (1 + 0.06 + 0.008 + 0.0127) × 1.0123 × 1.074 =
// 1.17494806314; ÷ (1 − 0.0565) = 1.24530…, 24.53% checked; ÷ (1 − 0.1015)
// = 1.30768…, 30.77% applied.
func TestBudgetBDIV1(t *testing.T) {
	f := newBudgetFixture(t)
	tok := f.u.Token
	path := "/api/v1/bud/budgets/" + f.id + "/bdi"
	got := call(t, f.h, "GET", path, tok, "", 200)
	if got["work_type"] != nil || got["check"] != nil || got["bdi"] != "25" {
		t.Errorf("before: %v", got)
	}
	// CPRB needs a desonerado budget.
	if r := f.h.Do("PATCH", "/api/public/v2/budgets/"+f.id, tok, `{"desonerado":true}`); r.Status != 200 {
		t.Fatalf("desonerado: %d %s", r.Status, r.Body)
	}
	if r := f.h.Do("PATCH", "/api/public/v2/budgets/"+f.id+"/bdi", tok,
		`{"work_type":"buildings","bdi_components":{"ac":6,"s":0.8,"r":1.27,"df":1.23,"l":7.4,"taxes":5.65,"cprb":4.5}}`); r.Status != 200 {
		t.Fatalf("PATCH bdi: %d %s", r.Status, r.Body)
	}
	got = call(t, f.h, "GET", path, tok, "", 200)
	check := got["check"].(map[string]any)
	var rows []string
	for _, r := range check["rows"].([]any) {
		o := r.(map[string]any)
		rows = append(rows, o["name"].(string)+":"+o["value"].(string)+":"+o["status"].(string))
	}
	want := []string{"ac:6:above", "sg:0.8:inside", "r:1.27:inside", "df:1.23:inside", "l:7.4:inside", "bdi:24.53:inside"}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if got["bdi"] != "30.77" || check["bdi"] != "30.77" || check["bdi_without_cprb"] != "24.53" || fmt.Sprint(check["flagged"]) != "1" {
		t.Errorf("v1 BDI %v", got)
	}
	call(t, f.h, "GET", path, f.other.Token, "", 404)
}
