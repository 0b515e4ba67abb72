package benchfix

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/costdb/costdb/app/storecache"
)

// TestGenerateCompany generates a small company and reads it back through
// the API: every composition answers with its items priced, and the text
// filter the load script uses finds the masonry resources.
func TestGenerateCompany(t *testing.T) {
	f := Setup(0)
	defer f.Close()
	co, err := GenerateCompany(context.Background(), storecache.New(f.Store), "bench@example.com", 5, 60, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(co.Compositions) != 5 || len(co.Resources) != 60 {
		t.Fatalf("generated %d compositions and %d resources, want 5 and 60", len(co.Compositions), len(co.Resources))
	}
	v2 := f.URL + "/api/public/v2/my_database"
	accept := []string{"Accept", "application/vnd.api+json"}
	for _, id := range co.Compositions {
		st, _, b := Do(v2+"/compositions/"+id, "GET", f.Token, "", accept...)
		if st != 200 {
			t.Fatalf("GET composition %s: %d %s", id, st, b)
		}
		var doc struct {
			Data struct {
				Attributes map[string]json.RawMessage `json:"attributes"`
			} `json:"data"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		var items map[string]struct {
			Bank string  `json:"banco"`
			PND  float64 `json:"pnd"`
		}
		if err := json.Unmarshal(doc.Data.Attributes["items"], &items); err != nil || len(items) != 20 {
			t.Fatalf("composition %s: %d items (%v), want 20: %s", id, len(items), err, b)
		}
		own := 0
		for key, it := range items {
			if it.Bank == "MYBASE" {
				own++
			}
			if it.PND <= 0 {
				t.Errorf("composition %s: item %s unpriced", id, key)
			}
		}
		if own != 4 {
			t.Fatalf("composition %s: %d own resources, want 4: %s", id, own, b)
		}
	}
	st, _, b := Do(v2+"/resources?page[size]=100&filter[description]=alvenaria&sort=-code", "GET", f.Token, "", accept...)
	if st != 200 {
		t.Fatalf("filtered list: %d %s", st, b)
	}
	var page struct {
		Data []struct {
			Attributes struct {
				Code        string `json:"code"`
				Description string `json:"description"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Data) == 0 || len(page.Data) == 60 {
		t.Fatalf("filter[description]=alvenaria listed %d of 60 resources, want some and not all", len(page.Data))
	}
	for _, r := range page.Data {
		if !strings.Contains(r.Attributes.Description, "ALVENARIA") {
			t.Fatalf("listed %q", r.Attributes.Description)
		}
	}
}
