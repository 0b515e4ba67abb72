package v2_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// objectsOf returns the resource objects of a document's primary data
// (one or many) or of its `included`.
func objectsOf(t *testing.T, v any) []obj {
	t.Helper()
	switch d := v.(type) {
	case obj:
		return []obj{d}
	case []any:
		out := make([]obj, len(d))
		for i, x := range d {
			out[i] = x.(obj)
		}
		return out
	}
	t.Fatalf("not resource objects: %v", v)
	return nil
}

// members are the attribute and relationship names of a resource object.
type members struct{ Attributes, Relationships []string }

func membersOf(o obj) members {
	return members{Attributes: keys(o["attributes"]), Relationships: keys(o["relationships"])}
}

func TestSparseFieldsets(t *testing.T) {
	h := apitest.New(t)
	ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	gid := str(data(t, create(t, h, groups, ana.Token, `{"description":"Alvenarias"}`))["id"])
	cid := str(data(t, create(t, h, compositions, ana.Token, `{"code":"ALV-1","description":"Alvenaria","unit":"M2","type":"PARE","location":"MG","group_id":"`+gid+`"}`))["id"])
	create(t, h, compositions, ana.Token, `{"code":"ALV-2","description":"Alvenaria 2","unit":"M2","type":"PARE","location":"MG"}`)
	rid := str(data(t, create(t, h, resources, ana.Token, `{"code":"001","description":"Bloco","unit":"UN","type":4,"locals":{"MG":{"pnd":2,"pd":1.9}}}`))["id"])
	none := []string{}

	tests := []struct {
		name, path string
		primary    []members // of each primary resource object
		included   []members // of each included one
	}{
		{"a composition", compositions + "/" + cid + "?fields[compositions]=code,unit,prices,group",
			[]members{{[]string{"code", "prices", "unit"}, []string{"group"}}}, nil},
		{"an empty fieldset", compositions + "/" + cid + "?fields[compositions]=",
			[]members{{none, none}}, nil},
		{"a list", compositions + "?sort=code&fields[compositions]=code,composition_type",
			[]members{{[]string{"code", "composition_type"}, none}, {[]string{"code", "composition_type"}, none}}, nil},
		{"included user and sector", compositions + "/" + cid + "?include=user,sector&fields[compositions]=code,user&fields[users]=name&fields[sectors]=",
			[]members{{[]string{"code"}, []string{"user"}}},
			[]members{{[]string{"name"}, none}, {none, none}}},
		{"included, primary untouched", resources + "/" + rid + "?include=user&fields[users]=email,sector",
			[]members{{[]string{"code", "created_at", "description", "is_sicro", "locals", "note", "resource_type", "secondary_code", "status", "unit"}, []string{"sector", "user"}}},
			[]members{{[]string{"email"}, []string{"sector"}}}},
		{"a list written by google/jsonapi", groups + "?fields[groups]=description",
			[]members{{[]string{"description"}, none}}, nil},
		{"a record built by hand", base + "/enums?fields[enums]=name",
			nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := expect(t, h.Do("GET", tt.path, ana.Token, ""), 200)
			var got []members
			for _, o := range objectsOf(t, doc["data"]) {
				got = append(got, membersOf(o))
			}
			if tt.primary == nil { // every object: only name
				for _, m := range got {
					if diff := cmp.Diff(members{[]string{"name"}, none}, m); diff != "" {
						t.Errorf("members (-want +got):\n%s", diff)
					}
				}
				return
			}
			if diff := cmp.Diff(tt.primary, got); diff != "" {
				t.Errorf("primary data's members (-want +got):\n%s", diff)
			}
			got = nil
			if doc["included"] != nil {
				for _, o := range objectsOf(t, doc["included"]) {
					got = append(got, membersOf(o))
				}
			}
			if diff := cmp.Diff(tt.included, got); diff != "" {
				t.Errorf("included members (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("a type not in the answer is ignored", func(t *testing.T) {
		full := h.Do("GET", compositions+"/"+cid, ana.Token, "")
		r := h.Do("GET", compositions+"/"+cid+"?fields[budgets]=code&fields[users]=name", ana.Token, "")
		expect(t, r, 200)
		if !bytes.Equal(full.Body, r.Body) {
			t.Errorf("answer differs from the full one:\n%s\n%s", full.Body, r.Body)
		}
	})

	t.Run("the recipe for kitsu and jsona: every attribute but type", func(t *testing.T) {
		all := keys(attrs(t, expect(t, h.Do("GET", compositions+"/"+cid, ana.Token, ""), 200)))
		var noType []string
		for _, k := range all {
			if k != "type" {
				noType = append(noType, k)
			}
		}
		doc := expect(t, h.Do("GET", compositions+"/"+cid+"?fields[compositions]="+strings.Join(noType, ",")+",user,sector,group", ana.Token, ""), 200)
		d := data(t, doc)
		if d["type"] != "compositions" || attrs(t, doc)["composition_type"] != "PARE" {
			t.Errorf("type %v, composition_type %v", d["type"], attrs(t, doc)["composition_type"])
		}
		if diff := cmp.Diff(members{noType, []string{"group", "sector", "user"}}, membersOf(d)); diff != "" {
			t.Errorf("members (-want +got):\n%s", diff)
		}
	})

	t.Run("unknown fields are 400 naming the parameter", func(t *testing.T) {
		for _, path := range []string{
			compositions + "/" + cid + "?fields[compositions]=code,bogus,owner",
			compositions + "?fields[compositions]=code,,unit",
			groups + "?fields[groups]=code", // a group has no code
			compositions + "/" + cid + "?fields[users]=password",
		} {
			r := h.Do("GET", path, ana.Token, "")
			got := errorsOf(t, r, 400)
			param := path[strings.Index(path, "fields[") : strings.Index(path, "]=")+1]
			if diff := cmp.Diff([]apiError{{"400", "bad_request", "", param}}, got); diff != "" {
				t.Errorf("%s: errors (-want +got):\n%s", path, diff)
			}
		}
		got := errorsOf(t, h.Do("GET", compositions+"?fields[compositions]=code&fields[compositions]=unit", ana.Token, ""), 400)
		if diff := cmp.Diff([]apiError{{"400", "bad_request", "", "fields[compositions]"}}, got); diff != "" {
			t.Errorf("given twice: errors (-want +got):\n%s", diff)
		}
		// Every bad name is named.
		r := h.Do("GET", compositions+"/"+cid+"?fields[compositions]=code,bogus,owner", ana.Token, "")
		if !bytes.Contains(r.Body, []byte("bogus, owner")) {
			t.Errorf("the detail does not name both fields: %s", r.Body)
		}
	})

	t.Run("fields on a write is 400", func(t *testing.T) {
		r := h.Do("PATCH", compositions+"/"+cid+"?fields[compositions]=code", ana.Token, `{}`)
		got := errorsOf(t, r, 400)
		if diff := cmp.Diff([]apiError{{"400", "bad_request", "", "fields[compositions]"}}, got); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
	})

	t.Run("each fieldset has its own ETag", func(t *testing.T) {
		a := h.Do("GET", compositions+"/"+cid+"?fields[compositions]=code", ana.Token, "")
		b := h.Do("GET", compositions+"/"+cid+"?fields[compositions]=unit", ana.Token, "")
		ta, tb := a.Header.Get("ETag"), b.Header.Get("ETag")
		if ta == "" || tb == "" || ta == tb {
			t.Fatalf("ETags %q and %q: want two different tags", ta, tb)
		}
		if bytes.Equal(a.Body, b.Body) {
			t.Fatalf("same answer for two fieldsets: %s", a.Body)
		}
		// A's tag does not validate B: B is answered in full, not 304,
		// and not from A's cached answer.
		r := h.Do("GET", compositions+"/"+cid+"?fields[compositions]=unit", ana.Token, "", "If-None-Match", ta)
		if r.Status != 200 || !bytes.Equal(r.Body, b.Body) {
			t.Errorf("status %d with the other fieldset's tag: %s", r.Status, r.Body)
		}
		r = h.Do("GET", compositions+"/"+cid+"?fields[compositions]=code", ana.Token, "", "If-None-Match", ta)
		if r.Status != 304 {
			t.Errorf("status %d with its own tag, want 304", r.Status)
		}
	})
}

func TestSparseReports(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	tests := []struct {
		path, typ string
		want      []string
	}{
		{"/reports/synthetic?fields[synthetic-rows]=number,total", "synthetic-rows", []string{"number", "total"}},
		{"/reports/synthetic?fields[synthetic-rows]=weight", "synthetic-rows", []string{"weight"}},
		{"/reports/analytic?fields[analytic-rows]=items,code", "analytic-rows", []string{"code", "items"}},
		{"/reports/abc?fields[abc-rows]=class,unit_price", "abc-rows", []string{"class", "unit_price"}},
		{"/reports/abc?fields[abc-rows]=", "abc-rows", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := h.Do("GET", budgets+"/"+f.id+tt.path, tok, "")
			doc := expect(t, r, 200)
			if err := apitest.ValidateJSONAPI(r.Body); err != nil {
				t.Fatalf("not a JSON:API document: %v\n%s", err, r.Body)
			}
			rows := rowsOf(t, doc, tt.typ)
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			for _, row := range rows {
				if diff := cmp.Diff(tt.want, keys(row)); diff != "" {
					t.Fatalf("attributes (-want +got):\n%s", diff)
				}
			}
			if doc["meta"] == nil || doc["links"] == nil {
				t.Errorf("meta or links lost: %v", doc)
			}
		})
	}
	got := errorsOf(t, h.Do("GET", budgets+"/"+f.id+"/reports/abc?fields[abc-rows]=total_with_bdi", tok, ""), 400)
	if diff := cmp.Diff([]apiError{{"400", "bad_request", "", "fields[abc-rows]"}}, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestJSONAPIClientLibraries reads a composition with kitsu-core and jsona
// (tools/jsonapi-clients, pinned): read in full, the attribute type takes
// the place of the JSON:API type; read with the documented recipe
// (fields[compositions] naming every attribute but type), the record keeps
// type "compositions". It needs node and `npm ci` in tools/jsonapi-clients
// (.ci/run does both); without them it is skipped.
func TestJSONAPIClientLibraries(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "tools", "jsonapi-clients"))
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range []string{"kitsu-core", "jsona"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", lib)); err != nil {
			t.Skipf("%s is not installed: run npm ci in tools/jsonapi-clients", lib)
		}
	}
	h := apitest.New(t)
	ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	cid := str(data(t, create(t, h, compositions, ana.Token, `{"code":"ALV-1","description":"Alvenaria","unit":"M2","type":"PARE","location":"MG"}`))["id"])
	full := h.Do("GET", compositions+"/"+cid, ana.Token, "")
	var fields []string
	for _, k := range keys(attrs(t, expect(t, full, 200))) {
		if k != "type" {
			fields = append(fields, k)
		}
	}
	sparse := h.Do("GET", compositions+"/"+cid+"?fields[compositions]="+strings.Join(fields, ","), ana.Token, "")
	expect(t, sparse, 200)
	tmp := t.TempDir()
	fullPath, sparsePath := filepath.Join(tmp, "full.json"), filepath.Join(tmp, "sparse.json")
	if err := os.WriteFile(fullPath, full.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sparsePath, sparse.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "check.mjs", fullPath, sparsePath)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node check.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestFieldsOnEveryRead sends a bad fieldset to every v2 GET of the API
// description: each one reads fields (400 naming the parameter), and each
// one documents it (the shared parameter V2Fields).
func TestFieldsOnEveryRead(t *testing.T) {
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	h := apitest.New(t)
	ana := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	n := 0
	for path, item := range c.Doc.Paths.Map() {
		rest, ok := strings.CutPrefix(path, base)
		if !ok || item.Get == nil {
			continue
		}
		n++
		documented := false
		for _, p := range item.Get.Parameters {
			documented = documented || p.Ref == "#/components/parameters/V2Fields"
		}
		if !documented {
			t.Errorf("%s (%s) does not document V2Fields", path, item.Get.OperationID)
		}
		for strings.Contains(rest, "{") { // any value: the query is read first
			i, j := strings.Index(rest, "{"), strings.Index(rest, "}")
			rest = rest[:i] + "x" + rest[j+1:]
		}
		r := h.Do("GET", base+rest+"?fields[compositions]=nope", ana.Token, "")
		got := errorsOf(t, r, 400)
		if diff := cmp.Diff([]apiError{{"400", "bad_request", "", "fields[compositions]"}}, got); diff != "" {
			t.Errorf("GET %s: errors (-want +got):\n%s", path, diff)
		}
	}
	if n < 40 {
		t.Fatalf("only %d v2 reads found in the description", n)
	}
}
