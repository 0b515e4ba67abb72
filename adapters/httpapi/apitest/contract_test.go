package apitest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
)

// TestContractCheck checks the checker: exchanges the document describes
// pass, and every kind of departure is caught.
func TestContractCheck(t *testing.T) {
	c, err := apitest.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	const (
		v1Groups = "/api/v1/base/mybase/groups"
		v2Groups = "/api/public/v2/my_database/groups"
		jsonapi  = "application/vnd.api+json"
		group    = `{"id":"g1","company_id":"c1","user_id":"u1","department_id":"d1","description":"Alvenaria","created_at":"2026-08-01T09:00:00-03:00"}`
		v2Group  = `{"data":{"type":"groups","id":"g1","attributes":{"description":"Alvenaria","created_at":"2026-08-01T09:00:00-03:00"},` +
			`"relationships":{"user":{"data":{"type":"users","id":"u1"}},"sector":{"data":{"type":"sectors","id":"d1"}}}}}`
		v1Err = `{"message":"no","errors":{}}`
		v2Err = `{"errors":[{"status":"404","code":"not_found","title":"Not found","detail":"no"}]}`
	)
	bearer := http.Header{"Authorization": {"Bearer t"}, "Content-Type": {"application/json"}}
	v1JSON := http.Header{"Content-Type": {"application/json"}}
	v2JSON := http.Header{"Content-Type": {jsonapi}}
	tests := []struct {
		name    string
		x       apitest.Exchange
		wantErr string // "" when the exchange is as described
	}{
		{"v1 create as described", apitest.Exchange{Method: "POST", Target: v1Groups, Header: bearer, RequestBody: []byte(`{"description":"Alvenaria"}`),
			Status: 201, RespHeader: v1JSON, RespBody: []byte(group)}, ""},
		{"v1 bare token", apitest.Exchange{Method: "GET", Target: v1Groups + "/g1", Header: http.Header{"Authorization": {"tok"}},
			Status: 200, RespHeader: v1JSON, RespBody: []byte(group)}, ""},
		{"v1 trailing slash", apitest.Exchange{Method: "GET", Target: v1Groups + "/?page=2", Header: bearer,
			Status: 200, RespHeader: v1JSON, RespBody: []byte(`{"total":0,"per_page":10,"current_page":2,"records":[]}`)}, ""},
		{"a refused request is not checked", apitest.Exchange{Method: "POST", Target: v1Groups, Header: bearer, RequestBody: []byte(`{"description":5}`),
			Status: 400, RespHeader: v1JSON, RespBody: []byte(`{"message":"description must be a JSON string","errors":{"description":["must be a JSON string"]}}`)}, ""},
		{"unknown path answered 404", apitest.Exchange{Method: "GET", Target: "/api/v1/base/mybase/nothing", Header: bearer,
			Status: 404, RespHeader: v1JSON, RespBody: []byte(v1Err)}, ""},
		{"unknown v2 path answered 404", apitest.Exchange{Method: "GET", Target: "/api/public/v2/nothing", Header: bearer,
			Status: 404, RespHeader: v2JSON, RespBody: []byte(v2Err)}, ""},
		{"v2 405 with the documented methods", apitest.Exchange{Method: "PUT", Target: v2Groups + "/g1", Header: bearer,
			Status: 405, RespHeader: http.Header{"Content-Type": {jsonapi}, "Allow": {"GET, PATCH, DELETE"}},
			RespBody: []byte(`{"errors":[{"status":"405","code":"method_not_allowed","title":"Method not allowed","detail":"no"}]}`)}, ""},
		{"v2 delete", apitest.Exchange{Method: "DELETE", Target: v2Groups + "/g1", Header: bearer, Status: 204, RespHeader: http.Header{}}, ""},

		{"undocumented path answered", apitest.Exchange{Method: "GET", Target: "/api/v1/base/mybase/budgets", Header: bearer,
			Status: 200, RespHeader: v1JSON, RespBody: []byte(`{}`)}, "is not in the API description"},
		{"undocumented method answered", apitest.Exchange{Method: "PATCH", Target: v1Groups + "/g1", Header: bearer,
			Status: 200, RespHeader: v1JSON, RespBody: []byte(group)}, "is not documented on"},
		{"undocumented status", apitest.Exchange{Method: "GET", Target: v1Groups + "/g1", Header: bearer,
			Status: 418, RespHeader: v1JSON, RespBody: []byte(v1Err)}, "status 418 is not documented"},
		{"undocumented media type", apitest.Exchange{Method: "GET", Target: v1Groups + "/g1", Header: bearer,
			Status: 200, RespHeader: v2JSON, RespBody: []byte(group)}, "does not match the description"},
		{"undocumented member", apitest.Exchange{Method: "GET", Target: v1Groups + "/g1", Header: bearer,
			Status: 200, RespHeader: v1JSON, RespBody: []byte(strings.Replace(group, `"id"`, `"extra":1,"id"`, 1))}, "extra"},
		{"missing member", apitest.Exchange{Method: "GET", Target: v1Groups + "/g1", Header: bearer,
			Status: 200, RespHeader: v1JSON, RespBody: []byte(strings.Replace(group, `"description":"Alvenaria",`, ``, 1))}, "description"},
		{"wrong type", apitest.Exchange{Method: "GET", Target: v2Groups + "/g1", Header: bearer,
			Status: 200, RespHeader: v2JSON, RespBody: []byte(strings.Replace(v2Group, `"Alvenaria"`, `5`, 1))}, "does not match"},
		{"body where none is documented", apitest.Exchange{Method: "DELETE", Target: v2Groups + "/g1", Header: bearer,
			Status: 204, RespHeader: v2JSON, RespBody: []byte(`{}`)}, "without a body"},
		{"no body where one is documented", apitest.Exchange{Method: "GET", Target: v2Groups + "/g1", Header: bearer,
			Status: 200, RespHeader: v2JSON}, "has none"},
		{"missing documented header", apitest.Exchange{Method: "POST", Target: v2Groups, Header: bearer, RequestBody: []byte(`{"description":"A"}`),
			Status: 201, RespHeader: v2JSON, RespBody: []byte(v2Group)}, "Location"},
		{"accepted request with a bad body", apitest.Exchange{Method: "POST", Target: v1Groups, Header: bearer, RequestBody: []byte(`{"description":5}`),
			Status: 201, RespHeader: v1JSON, RespBody: []byte(group)}, "request the server accepted"},
		{"accepted request with an undocumented parameter", apitest.Exchange{Method: "GET", Target: v1Groups + "/g1?expand=all", Header: bearer,
			Status: 200, RespHeader: v1JSON, RespBody: []byte(group)}, "expand"},
		{"accepted request without credentials", apitest.Exchange{Method: "GET", Target: v2Groups + "/g1",
			Status: 200, RespHeader: v2JSON, RespBody: []byte(v2Group)}, "request the server accepted"},
		{"v2 does not take the bare token", apitest.Exchange{Method: "GET", Target: v2Groups + "/g1", Header: http.Header{"Authorization": {"tok"}},
			Status: 200, RespHeader: v2JSON, RespBody: []byte(v2Group)}, "request the server accepted"},
		{"v1 401 without WWW-Authenticate", apitest.Exchange{Method: "GET", Target: v1Groups, Status: 401, RespHeader: v1JSON, RespBody: []byte(v1Err)},
			"WWW-Authenticate"},
		{"404 in the other generation's format", apitest.Exchange{Method: "GET", Target: "/api/v1/nothing", Header: bearer,
			Status: 404, RespHeader: v2JSON, RespBody: []byte(v2Err)}, "Content-Type"},
		{"405 whose Allow is not the description's", apitest.Exchange{Method: "PUT", Target: v2Groups + "/g1", Header: bearer,
			Status: 405, RespHeader: http.Header{"Content-Type": {jsonapi}, "Allow": {"GET, POST"}},
			RespBody: []byte(`{"errors":[{"status":"405","code":"method_not_allowed","title":"Method not allowed","detail":"no"}]}`)}, "Allow"},
		{"v2 405 without Allow", apitest.Exchange{Method: "PUT", Target: v2Groups + "/g1", Header: bearer,
			Status: 405, RespHeader: v2JSON, RespBody: []byte(`{"errors":[{"status":"405","code":"method_not_allowed","title":"Method not allowed","detail":"no"}]}`)}, "Allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Check(tt.x)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected departure: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("not caught (want an error about %q)", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}
