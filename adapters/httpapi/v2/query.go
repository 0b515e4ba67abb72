package v2

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/google/jsonapi"
)

// Page sizes of lists.
const (
	defaultPageSize = 20
	maxPageSize     = 100
	maxPageNumber   = 1_000_000_000 // keeps the offset far from overflow
)

// query parses the query string and refuses (400) any parameter not in
// allowed, or given twice: JSON:API says a server must not ignore a query
// parameter it does not know.
func query(r *http.Request, allowed ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, paramErrors{{Param: "", Message: "the query string is malformed"}}
	}
	var errs paramErrors
	for _, k := range sortedKeys(q) {
		switch {
		case !contains(allowed, k):
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

// parsePage reads page[number] and page[size] and refuses any other query
// parameter.
func parsePage(r *http.Request) (pageQuery, error) {
	q, err := query(r, "page[number]", "page[size]")
	if err != nil {
		return pageQuery{}, err
	}
	p := pageQuery{Number: 1, Size: defaultPageSize}
	var errs paramErrors
	if s := q.Get("page[number]"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPageNumber {
			errs = append(errs, &paramError{Param: "page[number]", Message: "must be a whole number from 1"})
		}
		p.Number = n
	}
	if s := q.Get("page[size]"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPageSize {
			errs = append(errs, &paramError{Param: "page[size]", Message: "must be a whole number from 1 to " + strconv.Itoa(maxPageSize)})
		}
		p.Size = n
	}
	if len(errs) > 0 {
		return pageQuery{}, errs
	}
	return p, nil
}

// window is the app's view of the page.
func (p pageQuery) window() app.Page {
	return app.Page{Offset: (p.Number - 1) * p.Size, Limit: p.Size}
}

// links are the top-level links of a list page: self, first, last, and prev
// and next where there is such a page. URLs are absolute paths. A page past
// the end is an empty list whose prev is the last page.
func (p pageQuery) links(r *http.Request, total int) *jsonapi.Links {
	last := max(1, (total+p.Size-1)/p.Size)
	at := func(n int) string {
		v := url.Values{}
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
