package domain

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMergeFiles(t *testing.T) {
	a := SourceFile{Name: "b-insumos-ND.csv", Size: 1, SHA256: "1"}
	b := SourceFile{Name: "a-sintetico-ND.csv", Size: 2, SHA256: "2"}
	b2 := SourceFile{Name: "a-sintetico-ND.csv", Size: 3, SHA256: "3"}
	c := SourceFile{Name: "c-sintetico-D.csv", Size: 4, SHA256: "4"}
	if got := MergeFiles(nil, nil); got != nil {
		t.Errorf("no files: %v", got)
	}
	// Regime by regime, or all at once: the same list, by name; a file
	// read again replaces its record.
	want := []SourceFile{b, a, c}
	if d := cmp.Diff(want, MergeFiles(MergeFiles(nil, []SourceFile{c}), []SourceFile{a, b})); d != "" {
		t.Errorf("by regime (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, MergeFiles(nil, []SourceFile{c, a, b})); d != "" {
		t.Errorf("at once (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]SourceFile{b2, a, c}, MergeFiles(want, []SourceFile{b2})); d != "" {
		t.Errorf("read again (-want +got):\n%s", d)
	}
}

func TestEditionRefOfKey(t *testing.T) {
	for _, ref := range []BankRef{
		{Name: "SINAPI", State: "MG", Month: "08/2026"},
		{Name: "SICRO3", State: "AL", Month: "01/2024", Region: "SERTÃO"},
	} {
		got, ok := EditionRefOfKey(ref.EditionKey())
		if !ok || got.EditionKey() != ref.EditionKey() || got.Label() != ref.Label() {
			t.Errorf("%s: %+v %v", ref.EditionKey(), got, ok)
		}
	}
	for _, bad := range []string{"", "SINAPI/MG/08-2026/", "SINAPI/MG/2026-08", "SINAPI/MG/2026-13/", "a/b/c/d/e"} {
		if _, ok := EditionRefOfKey(bad); ok {
			t.Errorf("%q taken for an edition key", bad)
		}
	}
}

// heldSnapshot is reference data held as a snapshot, with files per key.
type heldSnapshot struct {
	*PriceSnapshot
	files map[string][]SourceFile
}

func (h heldSnapshot) EditionFiles(key string) ([]SourceFile, bool, error) {
	f, ok := h.files[key]
	return f, ok, nil
}

// TestCheckVersion: a version checked against the data it was frozen from
// is OK; a coefficient, a cost and a description changed, an item added
// and a record gone are each named with both values, and the line figures
// and totals recomputed from the data found.
func TestCheckVersion(t *testing.T) {
	ref := BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}
	key := ref.EditionKey()
	snap := NewPriceSnapshot()
	snap.BankResources[snapKey(key, "R1")] = &BankResource{Code: "R1", Description: "Bloco", Unit: "UN", Type: TypeMaterial,
		Prices: PriceLine{PND: Dec("2.50"), PD: Dec("2.40"), PNDI: Dec("2.50"), PDI: Dec("2.40")}}
	snap.BankCompositions[snapKey(key, "C1")] = &BankComposition{Code: "C1", Description: "Alvenaria", Unit: "M2",
		Cost: UnitPrice{PND: Dec("100"), PD: Dec("95")}, Items: []StructureItem{{Kind: KindResource, Code: "R1", Coefficient: Dec("12.5")}}}
	snap.BankCompositions[snapKey(key, "C2")] = &BankComposition{Code: "C2", Description: "Reboco", Unit: "M2",
		Cost: UnitPrice{PND: Dec("30"), PD: Dec("29")}}
	b := &Budget{Code: "ORC", State: "MG", BDI: Dec("25"), Banks: []BankRef{ref}, Items: []BudgetNode{
		{Kind: NodeComposition, Bank: "SINAPI", Code: "C1", Quantity: Dec("10")},
		{Kind: NodeComposition, Bank: "SINAPI", Code: "C2", Quantity: Dec("4")},
		{Kind: NodeResource, Bank: "SINAPI", Code: "R1", Quantity: Dec("100")},
	}}
	b.AssignIDs()
	files := []SourceFile{{Name: "insumos.csv", Size: 10, SHA256: strings.Repeat("a", 64)}}
	content, err := json.Marshal(VersionContent{Format: VersionFormat, Budget: b, Prices: snap,
		Sources: []EditionSources{{Edition: key, Files: files}}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := CheckVersion(content, heldSnapshot{snap, map[string][]SourceFile{key: files}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.OK || len(c.Differences) != 0 || c.Records != 3 || c.Hash != ContentHash(content) || c.Files[0].Verdict != FileOK {
		t.Fatalf("against its own data: %+v", c)
	}

	held := NewPriceSnapshot()
	r1 := *snap.BankResources[snapKey(key, "R1")]
	held.BankResources[snapKey(key, "R1")] = &r1
	c1 := *snap.BankCompositions[snapKey(key, "C1")]
	c1.Description = "Alvenaria de vedação"
	c1.Cost.PND = Dec("101")
	c1.Items = []StructureItem{{Kind: KindResource, Code: "R1", Coefficient: Dec("12.6")}, {Kind: KindResource, Code: "R9", Coefficient: Dec("1")}}
	held.BankCompositions[snapKey(key, "C1")] = &c1 // C2 is gone
	changed := []SourceFile{{Name: "insumos.csv", Size: 11, SHA256: strings.Repeat("b", 64)}, {Name: "extra.csv", Size: 1, SHA256: strings.Repeat("c", 64)}}
	c, err = CheckVersion(content, heldSnapshot{held, map[string][]SourceFile{key: changed}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range c.Differences {
		got = append(got, strings.Join([]string{d.Line, d.Code, d.Figure, d.Frozen, d.Found}, "|"))
	}
	want := []string{
		"|C1|description|Alvenaria|Alvenaria de vedação",
		"|C1|cost (não desonerado)|100|101",
		"|C1|coefficient of resource R1|12.5|12.6",
		"|C1|item resource R9|-|1",
		"|C2|record|C2|-",
		"1|C1|unit price|100|101",
		"1|C1|unit price with BDI|125|126.25",
		"1|C1|total with BDI|1250|1262.5",
		"2|C2|unit price|30|0",
		"2|C2|unit price with BDI|37.5|0",
		"2|C2|total with BDI|150|0",
		"||budget total|1370|1260",
		"||budget BDI|342|314.5",
		"||budget total with BDI|1712|1574.5",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("differences (-want +got):\n%s", d)
	}
	var verdicts []string
	for _, f := range c.Files {
		verdicts = append(verdicts, f.Name+" "+f.Verdict)
	}
	if c.OK || strings.Join(verdicts, ", ") != "insumos.csv changed, extra.csv not recorded" {
		t.Errorf("ok %v, files %v", c.OK, verdicts)
	}
	if _, err := CheckVersion([]byte(`{"Format":1}`), heldSnapshot{held, nil}); ErrorCode(err) != EINVALID {
		t.Errorf("content without a budget: %v", err)
	}
}
