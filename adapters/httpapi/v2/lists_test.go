package v2_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// clock is a settable clock for the service, safe to read from the server's
// goroutines.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(s string) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// listFixture is a company with groups, resources and compositions made at
// known times (São Paulo, -03:00), and another company with look-alikes that
// no list of the first may show.
type listFixture struct {
	h     *apitest.Harness
	u     apitest.User
	group map[string]string // description → id
}

// The creation times, in order. t1 is 31 July in São Paulo but already
// 1 August in UTC; t4 is exactly midnight of 1 September in São Paulo.
const (
	t1 = "2026-07-31T23:30:00-03:00"
	t2 = "2026-08-01T08:00:00-03:00"
	t3 = "2026-08-15T12:00:00-03:00"
	t4 = "2026-09-01T00:00:00-03:00"
	t5 = "2026-09-10T12:00:00-03:00"
)

func newListFixture(t *testing.T) *listFixture {
	t.Helper()
	// Tokens are issued on the service's clock and checked on the real one:
	// users are made now, records in the past.
	c := &clock{t: time.Now()}
	h := apitest.New(t, func(e *httpapi.Env) { e.App.Now = c.now })
	f := &listFixture{h: h, u: h.AddUser("Construtora Alfa", "ana@alfa.com.br"), group: map[string]string{}}
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")

	for _, g := range []struct{ at, desc string }{{t1, "Alvenaria"}, {t2, "Água e esgoto"}, {t3, "Elétrica"}} {
		c.set(g.at)
		f.group[g.desc] = str(data(t, create(t, h, groups, f.u.Token, `{"description":"`+g.desc+`"}`))["id"])
	}
	alv := f.group["Alvenaria"]
	price := `{"pnd":1,"pd":1,"pndi":1,"pdi":1}`
	for _, r := range []struct{ at, body string }{
		{t1, `{"code":"000123","description":"AREIA MÉDIA LAVADA","type":4,"unit":"M3","status":true,"group_id":"` + alv + `","locals":{"MG":` + price + `}}`},
		{t2, `{"code":"88316","description":"SERVENTE COM ENCARGOS COMPLEMENTARES","type":3,"unit":"H","status":true,"locals":{"MG":` + price + `,"SP":` + price + `}}`},
		{t3, `{"code":"9","description":"CIMENTO PORTLAND CP II-32","type":4,"unit":"KG","status":false,"group_id":"` + alv + `","locals":{"SP":` + price + `}}`},
		{t4, `{"code":"E9017","description":"ESCAVADEIRA HIDRÁULICA SOBRE ESTEIRAS","type":1,"unit":"H","status":true,"is_sicro":true,"locals":{"AL":` + price + `}}`},
		{t5, `{"code":"10","description":"Água potável","type":4,"unit":"m³","status":true,"locals":{"MG":` + price + `}}`},
	} {
		c.set(r.at)
		create(t, h, resources, f.u.Token, r.body)
	}
	for _, cp := range []struct{ at, body string }{
		{t1, `{"code":"ALV-001","description":"ALVENARIA ESTRUTURAL 14X19X29","type":"PARE","unit":"M2","location":"MG","group_id":"` + alv + `"}`},
		{t2, `{"code":"ALV-001","description":"ALVENARIA ESTRUTURAL 14X19X29 (SP)","type":"PARE","unit":"M2","location":"SP"}`},
		{t3, `{"code":"REV-010","description":"REVESTIMENTO CERÂMICO PARA PAREDES","type":"REVE","unit":"M2","location":"MG"}`},
		{t4, `{"code":"ESC-1","description":"ESCAVAÇÃO MECÂNICA DE VALAS","type":"MOVT","unit":"M3","location":"AL","is_sicro":true,"team_production":1}`},
		{t5, `{"code":"alv-3","description":"Alvenaria de vedação","type":"PARE","unit":"M2","location":"MG"}`},
	} {
		c.set(cp.at)
		create(t, h, compositions, f.u.Token, cp.body)
	}

	// Look-alikes in another company, made in the same window.
	c.set(t3)
	create(t, h, groups, other.Token, `{"description":"Alvenaria"}`)
	create(t, h, resources, other.Token, `{"code":"000123","description":"AREIA MÉDIA","type":4,"unit":"M3","status":false,"locals":{"MG":`+price+`}}`)
	sinapiComposition(t, h, other.Token, "ALV-001")
	return f
}

// list GETs a list and returns the document.
func (f *listFixture) list(t *testing.T, path string) obj {
	t.Helper()
	return expect(t, f.h.Do("GET", path, f.u.Token, ""), 200)
}

// names identifies the records of a list document: a group by its
// description, a resource by its code, a composition by code/location.
func names(t *testing.T, doc obj) []string {
	t.Helper()
	out := []string{}
	for _, e := range doc["data"].([]any) {
		a := e.(obj)["attributes"].(obj)
		switch e.(obj)["type"] {
		case "groups":
			out = append(out, str(a["description"]))
		case "resources":
			out = append(out, str(a["code"]))
		case "compositions":
			out = append(out, str(a["code"])+"/"+str(a["location"]))
		default:
			t.Fatalf("unexpected type %v", e.(obj)["type"])
		}
	}
	return out
}

func TestListFilters(t *testing.T) {
	f := newListFixture(t)
	alv := f.group["Alvenaria"]
	tests := []struct {
		name, path string
		want       []string
	}{
		{"group description, accent-insensitive", groups + "?filter[description]=agua", []string{"Água e esgoto"}},
		{"group description, case-insensitive", groups + "?filter[description]=ELETRICA", []string{"Elétrica"}},
		{"groups created before a date", groups + "?filter[created_before]=2026-08-01", []string{"Alvenaria"}},
		{"groups created after a date", groups + "?filter[created_after]=2026-08-01", []string{"Água e esgoto", "Elétrica"}},

		{"resource code contains", resources + "?filter[code]=0001", []string{"000123"}},
		{"resource code, case-insensitive", resources + "?filter[code]=e90", []string{"E9017"}},
		{"resource description, accents in the record", resources + "?filter[description]=agua", []string{"10"}},
		{"resource description, accents in the filter", resources + "?filter[description]=MÉDIA", []string{"000123"}},
		{"resource description, no accent in the filter", resources + "?filter[description]=hidraulica", []string{"E9017"}},
		{"resource description, decomposed accent", resources + "?filter[description]=" + url.QueryEscape("a\u0301gua"), []string{"10"}},
		{"resource search on code", resources + "?filter[search]=883", []string{"88316"}},
		{"resource search on description", resources + "?filter[search]=cimento", []string{"9"}},
		{"resource type", resources + "?filter[resource_type]=4", []string{"000123", "9", "10"}},
		{"resource type by its seed name", resources + "?filter[type]=3", []string{"88316"}},
		{"resource unit, case-insensitive", resources + "?filter[unit]=h", []string{"88316", "E9017"}},
		{"resource unit with a superscript", resources + "?filter[unit]=M³", []string{"10"}},
		{"resource group", resources + "?filter[group]=" + alv, []string{"000123", "9"}},
		{"resource group with no members", resources + "?filter[group]=" + f.group["Elétrica"], []string{}},
		{"resource priced in a state", resources + "?filter[state]=SP", []string{"88316", "9"}},
		{"resource priced in a state, lower case", resources + "?filter[state]=mg", []string{"000123", "88316", "10"}},
		{"resource status", resources + "?filter[status]=false", []string{"9"}},
		{"resource is_sicro", resources + "?filter[is_sicro]=true", []string{"E9017"}},
		{"resources created from a São Paulo date", resources + "?filter[created_after]=2026-08-01", []string{"88316", "9", "E9017", "10"}},
		{"resources created before a São Paulo date", resources + "?filter[created_before]=2026-08-01", []string{"000123"}},
		{"resources created in August", resources + "?filter[created_after]=2026-08-01&filter[created_before]=2026-09-01", []string{"88316", "9"}},
		{"created_after is inclusive", resources + "?filter[created_after]=2026-09-01T03:00:00Z", []string{"E9017", "10"}},
		{"created_before with an unescaped + offset", resources + "?filter[created_before]=2026-08-01T02:30:01+00:00", []string{"000123"}},
		{"created_before with an escaped + offset", resources + "?filter[created_before]=2026-08-01T02:30:00%2B00:00", []string{}},
		{"two filters together", resources + "?filter[resource_type]=4&filter[state]=MG", []string{"000123", "10"}},

		{"composition code contains", compositions + "?filter[code]=alv", []string{"ALV-001/MG", "ALV-001/SP", "alv-3/MG"}},
		{"composition description, accent-insensitive", compositions + "?filter[description]=vedacao", []string{"alv-3/MG"}},
		{"composition description, the seed's example", compositions + "?filter[description]=alvenaria", []string{"ALV-001/MG", "ALV-001/SP", "alv-3/MG"}},
		{"composition search", compositions + "?filter[search]=rev", []string{"REV-010/MG"}},
		{"composition type", compositions + "?filter[composition_type]=pare", []string{"ALV-001/MG", "ALV-001/SP", "alv-3/MG"}},
		{"composition type by its seed name", compositions + "?filter[type]=MOVT", []string{"ESC-1/AL"}},
		{"composition unit", compositions + "?filter[unit]=m3", []string{"ESC-1/AL"}},
		{"composition location", compositions + "?filter[location]=SP", []string{"ALV-001/SP"}},
		{"composition state (alias of location)", compositions + "?filter[state]=al", []string{"ESC-1/AL"}},
		{"composition group", compositions + "?filter[group]=" + alv, []string{"ALV-001/MG"}},
		{"composition is_sicro", compositions + "?filter[is_sicro]=false", []string{"ALV-001/MG", "ALV-001/SP", "REV-010/MG", "alv-3/MG"}},
		{"compositions created from a date", compositions + "?filter[created_after]=2026-09-01", []string{"ESC-1/AL", "alv-3/MG"}},
		{"compositions created before a date-time", compositions + "?filter[created_before]=2026-08-01T08:00:00-03:00", []string{"ALV-001/MG"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := f.list(t, tt.path)
			if diff := cmp.Diff(tt.want, names(t, doc)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.path, diff)
			}
			if diff := cmp.Diff(obj{"total": jsonNumber(fmt.Sprint(len(tt.want)))}, doc["meta"]); diff != "" {
				t.Errorf("meta (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListSort(t *testing.T) {
	f := newListFixture(t)
	tests := []struct {
		name, path string
		want       []string
	}{
		{"default: creation order", resources, []string{"000123", "88316", "9", "E9017", "10"}},
		{"codes in natural order", resources + "?sort=code", []string{"9", "10", "000123", "88316", "E9017"}},
		{"descending", resources + "?sort=-code", []string{"E9017", "88316", "000123", "10", "9"}},
		{"description ignores case and accents", resources + "?sort=description", []string{"10", "000123", "9", "E9017", "88316"}},
		{"newest first", resources + "?sort=-created_at", []string{"10", "E9017", "9", "88316", "000123"}},
		{"two keys", resources + "?sort=resource_type,-code", []string{"E9017", "88316", "000123", "10", "9"}},
		{"type is resource_type", resources + "?sort=type,-code", []string{"E9017", "88316", "000123", "10", "9"}},
		{"ties stay in creation order", resources + "?sort=status", []string{"9", "000123", "88316", "E9017", "10"}},
		{"spaces around fields", resources + "?sort=" + url.QueryEscape(" unit , code"), []string{"88316", "E9017", "9", "000123", "10"}},
		{"booleans: false first", resources + "?sort=-is_sicro", []string{"E9017", "000123", "88316", "9", "10"}},

		{"compositions by location, then code", compositions + "?sort=location,code", []string{"ESC-1/AL", "ALV-001/MG", "alv-3/MG", "REV-010/MG", "ALV-001/SP"}},
		{"compositions by state (alias), newest first", compositions + "?sort=state,-created_at", []string{"ESC-1/AL", "alv-3/MG", "REV-010/MG", "ALV-001/MG", "ALV-001/SP"}},
		{"compositions by type", compositions + "?sort=-composition_type,description", []string{"REV-010/MG", "alv-3/MG", "ALV-001/MG", "ALV-001/SP", "ESC-1/AL"}},

		{"groups by description", groups + "?sort=description", []string{"Água e esgoto", "Alvenaria", "Elétrica"}},
		{"groups newest first", groups + "?sort=-created_at", []string{"Elétrica", "Água e esgoto", "Alvenaria"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, names(t, f.list(t, tt.path))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

// TestListFilterSortPage combines a filter, a sort and paging, and follows
// the links, which keep the filter and the sort.
func TestListFilterSortPage(t *testing.T) {
	f := newListFixture(t)
	doc := f.list(t, compositions+"?filter[composition_type]=PARE&sort=-created_at&page[size]=2")
	if diff := cmp.Diff([]string{"alv-3/MG", "ALV-001/SP"}, names(t, doc)); diff != "" {
		t.Errorf("page 1 (-want +got):\n%s", diff)
	}
	at := func(n int) string {
		return compositions + "?filter%5Bcomposition_type%5D=PARE&page%5Bnumber%5D=" + fmt.Sprint(n) + "&page%5Bsize%5D=2&sort=-created_at"
	}
	if diff := cmp.Diff(obj{"self": at(1), "first": at(1), "next": at(2), "last": at(2)}, doc["links"]); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(obj{"total": jsonNumber("3")}, doc["meta"]); diff != "" {
		t.Errorf("meta (-want +got):\n%s", diff)
	}

	doc = f.list(t, str(doc["links"].(obj)["next"]))
	if diff := cmp.Diff([]string{"ALV-001/MG"}, names(t, doc)); diff != "" {
		t.Errorf("page 2 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(obj{"self": at(2), "first": at(1), "prev": at(1), "last": at(2)}, doc["links"]); diff != "" {
		t.Errorf("links of page 2 (-want +got):\n%s", diff)
	}

	// Resources and groups keep their parameters the same way.
	doc = f.list(t, resources+"?filter[description]=a&sort=code&page[number]=2&page[size]=1")
	if diff := cmp.Diff([]string{"10"}, names(t, doc)); diff != "" {
		t.Errorf("resources page 2 (-want +got):\n%s", diff)
	}
	if got, want := str(doc["links"].(obj)["prev"]), resources+"?filter%5Bdescription%5D=a&page%5Bnumber%5D=1&page%5Bsize%5D=1&sort=code"; got != want {
		t.Errorf("prev = %s, want %s", got, want)
	}
	doc = f.list(t, groups+"?filter[created_after]=2026-08-01&page[size]=1")
	if got, want := str(doc["links"].(obj)["last"]), groups+"?filter%5Bcreated_after%5D=2026-08-01&page%5Bnumber%5D=2&page%5Bsize%5D=1"; got != want {
		t.Errorf("last = %s, want %s", got, want)
	}
}

func TestListQueryErrors(t *testing.T) {
	f := newListFixture(t)
	param := func(names ...string) []apiError {
		out := make([]apiError, len(names))
		for i, n := range names {
			out[i] = apiError{Status: "400", Code: "bad_request", Parameter: n}
		}
		return out
	}
	tests := []struct {
		name, path string
		want       []apiError
	}{
		{"unknown filter", resources + "?filter[colour]=red", param("filter[colour]")},
		{"a filter of another list", groups + "?filter[code]=1", param("filter[code]")},
		{"status neither true nor false", resources + "?filter[status]=maybe", param("filter[status]")},
		{"is_sicro not a boolean", compositions + "?filter[is_sicro]=1", param("filter[is_sicro]")},
		{"not a date", resources + "?filter[created_after]=yesterday", param("filter[created_after]")},
		{"no such month", groups + "?filter[created_before]=2026-13-01", param("filter[created_before]")},
		{"resource type not a number", resources + "?filter[resource_type]=material", param("filter[resource_type]")},
		{"resource type not in the catalogue", resources + "?filter[type]=99", param("filter[type]")},
		{"not a state", resources + "?filter[state]=XX", param("filter[state]")},
		{"not a location", compositions + "?filter[location]=Minas", param("filter[location]")},
		{"not a composition class", compositions + "?filter[composition_type]=WALL", param("filter[composition_type]")},
		{"empty filter value", compositions + "?filter[code]=", param("filter[code]")},
		{"one filter under two names", resources + "?filter[resource_type]=4&filter[type]=4", param("filter[type]")},
		{"same filter twice", resources + "?filter[code]=1&filter[code]=2", param("filter[code]")},
		{"filter without a name", resources + "?filter[]=1", param("filter[]")},
		{"filter without brackets", resources + "?filter=1", param("filter")},
		{"unknown sort field", compositions + "?sort=price", param("sort")},
		{"a sort field of another list", groups + "?sort=code", param("sort")},
		{"sort field twice", resources + "?sort=code,-code", param("sort")},
		{"empty sort", resources + "?sort=", param("sort")},
		{"empty sort field", resources + "?sort=code,,unit", param("sort")},
		{"a dash alone", resources + "?sort=-", param("sort")},
		{"every bad parameter named", resources + "?sort=price&filter[status]=maybe&filter[x]=1", param("filter[status]", "filter[x]", "sort")},
		{"bad page and bad sort", resources + "?page[size]=0&sort=", param("page[size]", "sort")},
		// One error object per parameter, never two identical ones (the
		// JSON:API schema wants the error objects unique).
		{"unknown sort field twice", resources + "?sort=price,price", param("sort")},
		{"unknown and repeated sort fields", compositions + "?sort=code,price,-code,colour,price", param("sort")},
		{"sort field under two names", compositions + "?sort=type,composition_type", param("sort")},
		{"empty page size", resources + "?page[size]=", param("page[size]")},
		{"empty page number", groups + "?page[number]=", param("page[number]")},
		{"empty page number and size", compositions + "?page[number]=&page[size]=", param("page[number]", "page[size]")},
		{"unknown include path on a list", resources + "?include=owner", param("include")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, f.h.Do("GET", tt.path, f.u.Token, ""), 400)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s errors (-want +got):\n%s", tt.path, diff)
			}
		})
	}

	// The one error object about sort names each problem once.
	doc := expect(t, f.h.Do("GET", compositions+"?sort=code,price,-code,colour,price", f.u.Token, ""), 400)
	detail := str(doc["errors"].([]any)[0].(obj)["detail"])
	for _, want := range []string{`"price"`, `"colour"`, "code more than once"} {
		if n := strings.Count(detail, want); n != 1 {
			t.Errorf("sort detail %q names %s %d times, want once", detail, want, n)
		}
	}

	// The detail names what the list knows.
	doc = expect(t, f.h.Do("GET", resources+"?filter[colour]=red", f.u.Token, ""), 400)
	detail = str(doc["errors"].([]any)[0].(obj)["detail"])
	if !strings.Contains(detail, "created_after") || !strings.Contains(detail, "resource_type") {
		t.Errorf("detail %q does not list the filters", detail)
	}
}
