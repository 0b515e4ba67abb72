package v2

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// Relationships and compound documents.
//
// Every relationship costdb writes names its record in `data` and leads to
// it by `links.related`: a user (/users/{id}), a sector, which is the
// company's department (/sectors/{id}), a group (/my_database/groups/{id}),
// or, for a bank item, its edition (/banks/{id}). A read of a record or a list of records takes
// include=user,sector,group (the relationships that record type has) and
// answers a compound document: the records named, each once, in `included`.
// Nested paths (group.user) are not supported; an include path the record
// type does not have is 400, as JSON:API asks.

// Relationships each record type has, for include.
var (
	ownedRels    = []string{"user", "sector"}
	groupedRels  = []string{"user", "sector", "group"}
	userRels     = []string{"sector"}
	includeParam = "include"
)

// relatedPaths are the paths, below the v2 base, of the records a
// relationship names, by JSON:API type.
var relatedPaths = map[string]string{
	"users":   "/users/",
	"sectors": "/sectors/",
	"groups":  "/my_database/groups/",
	"banks":   "/banks/",
}

// parseInclude reads the include parameter of q: relationship names
// separated by commas, each one of rels (a name given twice counts once).
// Every name that is not one of rels is named in one error for the
// parameter.
func parseInclude(q url.Values, rels []string) ([]string, *paramError) {
	v, ok := q[includeParam]
	if !ok {
		return nil, nil
	}
	var out, bad []string
	for _, p := range strings.Split(v[0], ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			return nil, &paramError{Param: includeParam, Message: "must name relationships separated by commas (" + strings.Join(rels, ", ") + ")"}
		case !contains(rels, p):
			if !contains(bad, p) {
				bad = append(bad, p)
			}
		case !contains(out, p):
			out = append(out, p)
		}
	}
	if len(bad) > 0 {
		return nil, &paramError{Param: includeParam, Message: "cannot include " + strings.Join(bad, ", ") +
			": the relationships of this record that can be included are " + strings.Join(rels, ", ")}
	}
	return out, nil
}

// readQuery parses the query of a read of one record: include (on rels),
// plus the parameters in extra. rels nil allows no include.
func readQuery(r *http.Request, rels []string, extra ...string) (url.Values, []string, error) {
	allowed := extra
	if len(rels) > 0 {
		allowed = append(append([]string{}, extra...), includeParam)
	}
	q, err := query(r, allowed...)
	if err != nil {
		return nil, nil, err
	}
	inc, perr := parseInclude(q, rels)
	if perr != nil {
		return nil, nil, paramErrors{perr}
	}
	return q, inc, nil
}

// apiBase is the path v2 is mounted at (/api/public/v2), taken from the
// request.
func apiBase(r *http.Request) string {
	path := strings.TrimSuffix(r.URL.Path, "/")
	rp := strings.TrimSuffix(httpapi.RoutePath(r), "/")
	if base, ok := strings.CutSuffix(path, rp); ok && rp != "" {
		return base
	}
	return "/api/public/v2"
}

// linkRelationships gives every to-one relationship of the nodes that names
// a user, sector, group or bank edition its links.related.
func linkRelationships(base string, nodes []*jsonapi.Node) {
	for _, n := range nodes {
		for _, rel := range n.Relationships {
			one, ok := rel.(*jsonapi.RelationshipOneNode)
			if !ok || one.Data == nil || one.Links != nil {
				continue
			}
			if p, ok := relatedPaths[one.Data.Type]; ok {
				one.Links = &jsonapi.Links{"related": base + p + url.PathEscape(one.Data.ID)}
			}
		}
	}
}

// included returns the records that the relationships inc of nodes name,
// each once and none that is already primary data, in the order first
// named. A record that is gone is left out.
func (h *handlers) included(r *http.Request, nodes []*jsonapi.Node, inc []string) ([]*jsonapi.Node, error) {
	return h.includedRecords(r, len(nodes),
		func(i int) relTarget { return relTarget{nodes[i].Type, nodes[i].ID} },
		func(i int, name string) (relTarget, bool) {
			one, ok := nodes[i].Relationships[name].(*jsonapi.RelationshipOneNode)
			if !ok || one.Data == nil {
				return relTarget{}, false
			}
			return relTarget{one.Data.Type, one.Data.ID}, true
		}, inc)
}

// includedRecords is included for n primary records, each named by self
// and its relationships by related.
func (h *handlers) includedRecords(r *http.Request, n int, self func(int) relTarget,
	related func(int, string) (relTarget, bool), inc []string) ([]*jsonapi.Node, error) {
	if len(inc) == 0 {
		return nil, nil
	}
	seen := map[relTarget]bool{}
	for i := range n {
		seen[self(i)] = true
	}
	var out []*jsonapi.Node
	for i := range n {
		for _, name := range inc {
			t, ok := related(i, name)
			if !ok || seen[t] {
				continue
			}
			seen[t] = true
			node, err := h.relatedNode(r, t.typ, t.id)
			if domain.ErrorCode(err) == domain.ENOTFOUND {
				continue
			}
			if err != nil {
				return nil, err
			}
			out = append(out, node)
		}
	}
	return out, nil
}

// relatedNode reads the record of a relationship as a resource object.
func (h *handlers) relatedNode(r *http.Request, typ, id string) (*jsonapi.Node, error) {
	var model any
	switch typ {
	case "users":
		u, err := h.env.App.User(r.Context(), principal(r), id)
		if err != nil {
			return nil, err
		}
		model = userDocOf(u)
	case "sectors":
		d, err := h.env.App.Department(r.Context(), principal(r), id)
		if err != nil {
			return nil, err
		}
		model = sectorDocOf(d)
	case "groups":
		g, err := h.env.App.Group(r.Context(), principal(r), id)
		if err != nil {
			return nil, err
		}
		model = h.groupDoc(g)
	default:
		return nil, domain.Errorf(domain.ENOTFOUND, "%s %s not found", typ, id)
	}
	p, err := jsonapi.Marshal(model)
	if err != nil {
		return nil, err
	}
	return p.(*jsonapi.OnePayload).Data, nil
}
