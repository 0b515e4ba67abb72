package v2

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// Page sizes of lists.
const (
	defaultPageSize = 20
	maxPageSize     = 100
	maxPageNumber   = 1_000_000_000 // keeps the offset far from overflow
)

// anyFilter, among the parameters allowed, allows every filter[name]; the
// app says which names a list knows.
const anyFilter = "filter[…]"

// query parses the query string and refuses (400) any parameter not in
// allowed, or given twice: JSON:API says a server must not ignore a query
// parameter it does not know. A read also takes fields[TYPE] (sparse.go),
// its names checked here.
func query(r *http.Request, allowed ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, paramErrors{{Param: "", Message: "the query string is malformed"}}
	}
	var errs paramErrors
	if isRead(r) { // every read takes sparse fieldsets (sparse.go)
		_, errs = parseFields(q)
	}
	for _, k := range sortedKeys(q) {
		_, isFilter := filterName(k)
		_, isFields := fieldsType(k)
		switch {
		case isFields && isRead(r):
			if len(q[k]) > 1 {
				errs = append(errs, &paramError{Param: k, Message: "is given more than once"})
			}
		case !contains(allowed, k) && !(isFilter && contains(allowed, anyFilter)):
			msg := "is not a query parameter of this operation"
			if len(allowed) > 0 {
				msg += " (allowed: " + strings.Join(allowed, ", ") + ")"
			}
			errs = append(errs, &paramError{Param: k, Message: msg})
		case len(q[k]) > 1:
			errs = append(errs, &paramError{Param: k, Message: "is given more than once"})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return q, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pageQuery is the page a list request asks for: page[number] (1-based,
// default 1) and page[size] (default 20, at most 100).
type pageQuery struct {
	Number, Size int
}

// filterName returns the name of a filter[name] parameter.
func filterName(param string) (string, bool) {
	name, ok := strings.CutPrefix(param, "filter[")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, "]")
	return name, ok && name != ""
}

// listQuery is what a list request asks for: the page (for the links),
// the app's query, filters and order included, and the relationships whose
// records to include.
type listQuery struct {
	page    pageQuery
	app     app.ListQuery
	include []string
}

// parseList reads page[number], page[size], sort ("code,-created_at") and
// filter[name] and, for a list of records with the relationships rels,
// include; it refuses any other query parameter. Which filter names and sort
// fields a list knows, and what values they take, the app checks (see
// asParamErrors).
func (h *handlers) parseList(r *http.Request, rels ...string) (listQuery, error) {
	allowed := []string{"page[number]", "page[size]", "sort", anyFilter}
	if len(rels) > 0 {
		allowed = append(allowed, includeParam)
	}
	q, err := query(r, allowed...)
	if err != nil {
		return listQuery{}, err
	}
	pg, errs := pageOf(q)
	inc, perr := parseInclude(q, rels)
	if perr != nil {
		errs = append(errs, perr)
	}
	lq := listQuery{page: pg, app: app.ListQuery{Page: pg.window(), Zone: h.env.Location}, include: inc}
	if s, ok := q["sort"]; ok {
		keys, err := parseSort(s[0])
		if err != nil {
			errs = append(errs, err)
		}
		lq.app.Sort = keys
	}
	for k, v := range q {
		if name, ok := filterName(k); ok {
			if lq.app.Filters == nil {
				lq.app.Filters = map[string]string{}
			}
			lq.app.Filters[name] = v[0]
		}
	}
	if len(errs) > 0 {
		return listQuery{}, errs
	}
	return lq, nil
}

// parseSort reads a JSON:API sort parameter: fields separated by commas,
// each descending when it starts with "-".
func parseSort(s string) ([]app.SortKey, *paramError) {
	var keys []app.SortKey
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		k := app.SortKey{Field: strings.TrimPrefix(f, "-"), Desc: strings.HasPrefix(f, "-")}
		if k.Field == "" {
			return nil, &paramError{Param: "sort", Message: "must name fields separated by commas, each optionally preceded by - (descending), as in sort=-created_at,code"}
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// asParamErrors turns the app's EBADREQUEST answer to a bad list query,
// whose fields name query parameters, into errors with source.parameter.
func asParamErrors(err error) error {
	fields := domain.ErrorFields(err)
	if domain.ErrorCode(err) != domain.EBADREQUEST || len(fields) == 0 {
		return err
	}
	out := make(paramErrors, len(fields))
	for i, f := range fields {
		out[i] = &paramError{Param: f.Field, Message: f.Message}
	}
	return out
}

// invalidAsParams is asParamErrors for the EINVALID field errors of a use
// case whose input was query parameters: each field ("/discount") becomes
// the parameter it names (400).
func invalidAsParams(err error) error {
	fields := domain.ErrorFields(err)
	if domain.ErrorCode(err) != domain.EINVALID || len(fields) == 0 {
		return err
	}
	out := make(paramErrors, len(fields))
	for i, f := range fields {
		out[i] = &paramError{Param: strings.TrimPrefix(f.Field, "/"), Message: f.Message}
	}
	return out
}

// pageOf reads page[number] and page[size] from q.
func pageOf(q url.Values) (pageQuery, paramErrors) {
	p := pageQuery{Number: 1, Size: defaultPageSize}
	var errs paramErrors
	// An empty page[number]= or page[size]= is 400, as every other empty
	// v2 parameter is.
	if _, ok := q["page[number]"]; ok {
		n, err := strconv.Atoi(q.Get("page[number]"))
		if err != nil || n < 1 || n > maxPageNumber {
			errs = append(errs, &paramError{Param: "page[number]", Message: "must be a whole number from 1"})
		}
		p.Number = n
	}
	if _, ok := q["page[size]"]; ok {
		n, err := strconv.Atoi(q.Get("page[size]"))
		if err != nil || n < 1 || n > maxPageSize {
			errs = append(errs, &paramError{Param: "page[size]", Message: "must be a whole number from 1 to " + strconv.Itoa(maxPageSize)})
		}
		p.Size = n
	}
	return p, errs
}

// window is the app's view of the page.
func (p pageQuery) window() app.Page {
	return app.Page{Offset: (p.Number - 1) * p.Size, Limit: p.Size}
}

// links are the top-level links of a list page: self, first, last, and prev
// and next where there is such a page. URLs are absolute paths and keep the
// request's other parameters (sort, filters). A page past the end is an
// empty list whose prev is the last page.
func (p pageQuery) links(r *http.Request, total int) *jsonapi.Links {
	last := max(1, (total+p.Size-1)/p.Size)
	at := func(n int) string {
		v, _ := url.ParseQuery(r.URL.RawQuery) // already parsed without error
		v.Set("page[number]", strconv.Itoa(n))
		v.Set("page[size]", strconv.Itoa(p.Size))
		return strings.TrimSuffix(r.URL.Path, "/") + "?" + v.Encode()
	}
	l := jsonapi.Links{
		"self":  at(p.Number),
		"first": at(1),
		"last":  at(last),
	}
	if p.Number > 1 {
		l["prev"] = at(min(p.Number-1, last))
	}
	if p.Number < last {
		l["next"] = at(p.Number + 1)
	}
	return &l
}

// totalMeta is the top-level meta of a list.
func totalMeta(total int) *jsonapi.Meta {
	return &jsonapi.Meta{"total": total}
}
