// Package v1 is costdb's first-generation HTTP API: plain JSON
// (application/json) under /api/v1, byte-compatible with the public v1 API
// the service mirrors, so that an existing integration works by changing
// only its base URL.
//
// Handlers are thin: decode the request, map it to an app input, call one
// app.Service method, map the result to the v1 shape and encode it. Every
// rule lives in app and domain.
//
// Decisions the seed contract leaves open, and what this package does:
//
//   - Errors are Rails-like: {"message": "...", "errors": {"field": ["..."]}}.
//     Field names come from the domain's JSON pointers, renamed to what the
//     v1 request body calls them: "/items/2/code" → "items[2].code",
//     "/locals/MG/pnd" → "locals[MG].pnd", an error about the whole record →
//     "base". `errors` is {} when no field is named. A 500 only ever says
//     "internal error".
//   - Lists take ?page= (1-based, default 1) and ?per_page= (default 10,
//     capped at 100); anything but a positive integer is a 400. A page past
//     the end has "records": []. Resources and compositions also take
//     ?search=, as the real v1 budget list does: codes or descriptions that
//     contain it, ignoring case and accents.
//   - DELETE answers 200 {"message": "deleted"} (the origin system answers
//     deletes with a body, and a body is friendlier to v1 clients than 204).
//   - An update (PUT) changes only the keys present in the body; a key that
//     is null or absent leaves the field as it is, and "" clears a text field.
//     company_id, user_id and department_id are set by the server and ignored
//     when sent; an "id", when sent, must equal the id in the path.
//   - Resources are shown in three shapes, as the seed gives them: the list
//     record (also used by GET /{id} and find_by_code), the create response
//     and the update response (code_2, local). In all of them a SICRO
//     resource's price per state is a single number (its pnd); a single
//     number sent for a state sets all four prices of that state.
//   - A composition's v1 shape is the seed's plus group_id ("" when it has
//     none), as on resources; note is accepted on create and update but not
//     echoed.
//   - What real v1 clients send is the contract (docs/decisions.md, "v1
//     leniency"): find_by_code without state, add-items hints (type,
//     is_resource), add-bases region and with_labor_charges, the underscore
//     spellings add_items/add_bases/remove_items, PATCH as PUT, and every
//     name a read returns accepted back by an update.
//   - Reference banks are read under /base/{bank}/… in the shapes of
//     mybase (bankviews.go): any imported bank, any case, read-only (405).
//   - A SICRO-model composition with team_production 0 is accepted and
//     shown without a unit cost (pnd/pd null, missing naming the field).
package v1

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// Page sizes of the v1 lists.
const (
	DefaultPerPage = 10
	MaxPerPage     = 100
)

// defaultMaxBody is the body cap used when the Env sets none.
const defaultMaxBody = 1 << 20

// mediaType is the media type of every v1 response.
const mediaType = "application/json"

// Routes returns the v1 API, to be mounted at /api/v1.
func Routes(env *httpapi.Env) http.Handler {
	h := &handler{env: env}
	limit := env.MaxBodyBytes
	if limit <= 0 {
		limit = defaultMaxBody
	}

	r := chi.NewRouter()
	r.Use(env.Recoverer(h.panicked))
	r.Use(httpapi.RememberRoutePath)
	r.Use(httpapi.LimitBody(limit))
	r.Use(httpapi.RequireJSON(h.fail))
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		h.fail(w, req, domain.Errorf(domain.ENOTFOUND, "no such route: %s %s", req.Method, req.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if allowed := httpapi.AllowedMethods(r, httpapi.RoutePath(req)); len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
		}
		writeError(w, http.StatusMethodNotAllowed, "method "+req.Method+" is not allowed here", nil, nil)
	})

	r.Post("/login/authenticate_user", h.login)

	env.Authenticated(r, true, h.fail, narrow, func(r chi.Router) {
		r.Get("/enums", h.listEnums)
		r.Get("/enums/{catalog}", h.getEnum)
		// The bank catalogue (banks.go).
		r.Get("/banks", h.listBanks)
		r.Get("/banks/find_by_code", h.findBankItem)
		// A reference-bank resource by code, across the imported editions.
		r.Get("/resources/find_by_code", h.findReferenceResource)
		r.Route("/base/mybase", func(r chi.Router) {
			r.Route("/groups", func(r chi.Router) {
				r.Get("/", h.listGroups)
				r.Post("/", h.createGroup)
				r.Get("/{id}", h.getGroup)
				r.Put("/{id}", h.updateGroup)
				r.Delete("/{id}", h.deleteGroup)
			})
			r.Route("/resources", func(r chi.Router) {
				r.Get("/", h.listResources)
				r.Post("/", h.createResource)
				r.Get("/find_by_code", h.findResource)
				r.Get("/{id}", h.getResource)
				r.Put("/{id}", h.updateResource)
				r.Patch("/{id}", h.updateResource) // real clients send PATCH: v1 PUT is already a partial update
				r.Delete("/{id}", h.deleteResource)
			})
			r.Route("/compositions", func(r chi.Router) {
				r.Get("/", h.listCompositions)
				r.Post("/", h.createComposition)
				r.Get("/find_by_code", h.findComposition)
				r.Get("/{id}", h.getComposition)
				r.Put("/{id}", h.updateComposition)
				r.Patch("/{id}", h.updateComposition) // as PUT, which is already a partial update
				r.Delete("/{id}", h.deleteComposition)
				r.Post("/{id}/add-items", h.addItems)
				r.Post("/{id}/add-bases", h.addBases)
				r.Delete("/{id}/remove-items", h.removeItems)
				// The underscore spellings real clients send answer the same.
				r.Post("/{id}/add_items", h.addItems)
				r.Post("/{id}/add_bases", h.addBases)
				r.Delete("/{id}/remove_items", h.removeItems)
			})
		})
		// Read-only views of a reference bank in the shapes of mybase
		// (bankviews.go); "mybase" above is matched first.
		r.Route("/base/{bank}", func(r chi.Router) {
			r.Get("/compositions", h.listBankCompositions)
			r.Get("/compositions/find_by_code", h.getBankComposition)
			r.Get("/compositions/{id}", h.getBankComposition)
			r.Get("/resources", h.listBankResources)
			r.Get("/resources/find_by_code", h.getBankResource)
			r.Get("/resources/{id}", h.getBankResource)
		})
		// Budgets and their reports (budgets.go).
		r.Get("/bud/budgets/list", h.listBudgets)
		r.Get("/bud/budgets/{id}", h.getBudget)
		r.Get("/bud/budgets/{id}/nodes/{node}", h.getNode)
		r.Get("/bud/budgets/{id}/synthetic", h.syntheticReport)
		r.Get("/bud/budgets/{id}/bdi", h.getBudgetBDI)
		r.Get("/bud/budgets/{id}/analytical_with_unit_price", h.analyticReport)
	})
	return r
}

// handler holds the v1 handlers.
type handler struct {
	env *httpapi.Env
}

// write answers with v as JSON.
func (h *handler) write(w http.ResponseWriter, status int, v any) {
	httpapi.WriteJSON(w, mediaType, status, v)
}

// deleted is the body of a successful DELETE.
var deleted = map[string]string{"message": "deleted"}

// principal is the authenticated caller.
func principal(r *http.Request) domain.Principal { return httpapi.PrincipalFrom(r.Context()) }

// listEnvelope is the v1 list body.
type listEnvelope[T any] struct {
	Total       int `json:"total"`
	PerPage     int `json:"per_page"`
	CurrentPage int `json:"current_page"`
	Records     []T `json:"records"`
}

// pagination reads ?page= and ?per_page=.
type pagination struct {
	page, perPage int
}

func parsePagination(r *http.Request) (pagination, error) {
	p := pagination{page: 1, perPage: DefaultPerPage}
	q := r.URL.Query()
	for _, f := range []struct {
		name string
		to   *int
	}{{"page", &p.page}, {"per_page", &p.perPage}} {
		s := q.Get(f.name)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		// At most 15 digits, as every number costdb reads: current_page
		// echoes it, and no answer holds a longer number.
		if err != nil || n < 1 || n > maxPageNumber {
			e := domain.Errorf(domain.EBADREQUEST, "%s must be a positive integer of at most 15 digits", f.name)
			e.Fields = []domain.FieldError{{Field: "/" + f.name, Message: "must be a positive integer of at most 15 digits"}}
			return p, e
		}
		*f.to = n
	}
	if p.perPage > MaxPerPage {
		p.perPage = MaxPerPage
	}
	return p, nil
}

// maxPageNumber is the largest page (and per_page) a v1 list takes.
const maxPageNumber = 999_999_999_999_999

// window is the app.Page the pagination selects. A page so far out that
// its offset would overflow selects nothing.
func (p pagination) window() app.Page {
	const maxInt = int(^uint(0) >> 1)
	if p.page-1 > maxInt/p.perPage {
		return app.Page{Offset: maxInt, Limit: p.perPage}
	}
	return app.Page{Offset: (p.page - 1) * p.perPage, Limit: p.perPage}
}

// query is the app query of a v1 list: the page and, for lists that take
// it (resources and compositions, as the real v1 budget list does), a
// ?search= that matches codes and descriptions containing it, ignoring case
// and accents.
func (p pagination) query(r *http.Request, search bool) app.ListQuery {
	q := app.ListQuery{Page: p.window()}
	if s := strings.TrimSpace(r.URL.Query().Get("search")); search && s != "" {
		q.Filters = map[string]string{"search": s}
	}
	return q
}

// envelope builds the list body of records, mapped one by one.
func envelope[R, T any](p pagination, total int, records []R, conv func(R) T) listEnvelope[T] {
	out := listEnvelope[T]{Total: total, PerPage: p.perPage, CurrentPage: p.page, Records: make([]T, 0, len(records))}
	for _, rec := range records {
		out.Records = append(out.Records, conv(rec))
	}
	return out
}

// decode reads the request body into in and returns the Service to run the
// request on: it takes the body's bad numbers to the use case, which answers
// them with its own field errors (Env.RejectNumbers). ok false: the error is
// answered.
func (h *handler) decode(w http.ResponseWriter, r *http.Request, in any) (*app.Service, bool) {
	if err := httpapi.DecodeJSON(r, in); err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	return h.env.RejectNumbers(in, ""), true
}

// checkBodyID returns an EINVALID error on "id" when a body names an id other
// than the one in the path.
func checkBodyID(body *string, pathID string) error {
	if body != nil && *body != pathID {
		return domain.FieldErrorf("/id", "does not match the id in the path")
	}
	return nil
}

// narrow is what a GET of the own base may read of the company's
// compositions (httpapi.Narrow): GET /base/mybase/compositions/{id} that
// one, the GETs of /base/mybase/resources none. The Authenticated group
// sees the mount "/base/mybase/*" matched, the rest of the path in "*".
func narrow(r *http.Request) httpapi.Narrow {
	rc := chi.RouteContext(r.Context())
	if rc == nil || !strings.HasSuffix(rc.RoutePattern(), "/base/mybase/*") {
		return httpapi.Narrow{}
	}
	rest := chi.URLParam(r, "*")
	if rest == "resources" || strings.HasPrefix(rest, "resources/") {
		return httpapi.Narrow{NoCompositions: true}
	}
	id, ok := strings.CutPrefix(rest, "compositions/")
	if !ok || id == "" || id == "find_by_code" || strings.Contains(id, "/") {
		return httpapi.Narrow{}
	}
	return httpapi.Narrow{Composition: id}
}
