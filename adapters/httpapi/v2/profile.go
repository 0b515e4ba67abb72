package v2

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The company profile (docs/profile.md) is the JSON:API type
// "company-profiles", one per company, id the company's, at
// /company/profile: GET reads it (every field empty when none was given),
// PATCH changes the attributes it names. Its logo is a sub-resource of
// its own, the image itself: PUT /company/profile/logo with the image's
// media type as Content-Type (image/png, image/jpeg, image/svg+xml),
// GET answers it, DELETE removes it. Any user of the company may write
// them (costdb has no roles).

const (
	profilePath = "/company/profile"
	logoPath    = profilePath + "/logo"
)

// profileDoc is a company profile as v2 writes it.
type profileDoc struct {
	ID               string  `jsonapi:"primary,company-profiles"`
	LegalName        string  `jsonapi:"attr,legal_name"`
	CNPJ             string  `jsonapi:"attr,cnpj"`
	CNPJFormatted    string  `jsonapi:"attr,cnpj_formatted"`
	Address          string  `jsonapi:"attr,address"`
	EngineerName     string  `jsonapi:"attr,engineer_name"`
	EngineerRegistry string  `jsonapi:"attr,engineer_registry"`
	LogoMediaType    *string `jsonapi:"attr,logo_media_type"`
	LogoSize         int     `jsonapi:"attr,logo_size"`
	UpdatedAt        *string `jsonapi:"attr,updated_at"`
}

func (h *handlers) profileDoc(p *app.ProfileInfo) *profileDoc {
	d := &profileDoc{ID: p.CompanyID, LegalName: p.LegalName, CNPJ: p.CNPJ, CNPJFormatted: domain.FormatCNPJ(p.CNPJ),
		Address: p.Address, EngineerName: p.EngineerName, EngineerRegistry: p.EngineerRegistry,
		LogoMediaType: strOrNil(p.LogoType), LogoSize: p.LogoSize}
	if !p.UpdatedAt.IsZero() {
		at := h.env.FormatTime(p.UpdatedAt)
		d.UpdatedAt = &at
	}
	return d
}

// The attributes of a profile update.
var (
	aLegalName        = attr{app: "legal_name", names: []string{"legal_name"}, kind: "string"}
	aCNPJ             = attr{app: "cnpj", names: []string{"cnpj"}, kind: "string"}
	aAddress          = attr{app: "address", names: []string{"address"}, kind: "string"}
	aEngineerName     = attr{app: "engineer_name", names: []string{"engineer_name"}, kind: "string"}
	aEngineerRegistry = attr{app: "engineer_registry", names: []string{"engineer_registry"}, kind: "string"}
	profileReadOnly   = []string{"cnpj_formatted", "logo_media_type", "logo_size", "updated_at"}
)

func profilePatch(b *attrBody) app.ProfilePatch {
	return app.ProfilePatch{
		LegalName:        read[string](b, aLegalName),
		CNPJ:             read[string](b, aCNPJ),
		Address:          read[string](b, aAddress),
		EngineerName:     read[string](b, aEngineerName),
		EngineerRegistry: read[string](b, aEngineerRegistry),
	}
}

// getProfile handles GET /company/profile.
func (h *handlers) getProfile(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	p, err := h.env.App.CompanyProfile(r.Context(), principal(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.profileDoc(p))
}

// updateProfile handles PATCH /company/profile: the attributes named
// change (null or "" clears one); 422 names every bad one at once.
func (h *handlers) updateProfile(w http.ResponseWriter, r *http.Request) {
	p := principal(r)
	b, pt, ok := readPatch(h, w, r, "company-profiles", p.CompanyID, profilePatch, profileReadOnly...)
	if !ok {
		return
	}
	out, err := h.env.App.Rejecting(b.rejected).UpdateCompanyProfile(r.Context(), p, pt)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.profileDoc(out))
}

// getLogo handles GET /company/profile/logo: the image as it was sent, in
// its media type; 404 when there is none. An SVG is answered with a
// Content-Security-Policy that lets it run and fetch nothing, besides the
// checks it passed on the way in.
func (h *handlers) getLogo(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	data, typ, err := h.env.App.CompanyLogo(r.Context(), principal(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	_, _ = w.Write(data)
}

// putLogo handles PUT /company/profile/logo: the body is the image, read
// through a reader bounded at domain.MaxLogoBytes (413 over it); its
// Content-Type must be one of the logo types (415 otherwise) and the bytes
// must be an image of that type (422 on /logo). Answers the profile.
func (h *handlers) putLogo(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != domain.LogoPNG && mt != domain.LogoJPEG && mt != domain.LogoSVG) {
		h.writeError(w, r, domain.Errorf(httpapi.EUNSUPPORTED, "the logo's Content-Type must be %s, %s or %s",
			domain.LogoPNG, domain.LogoJPEG, domain.LogoSVG))
		return
	}
	tooLarge := domain.Errorf(httpapi.ETOOLARGE, "the logo is larger than %d bytes", domain.MaxLogoBytes)
	if r.ContentLength > domain.MaxLogoBytes {
		h.writeError(w, r, tooLarge)
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, domain.MaxLogoBytes+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe) || len(data) > domain.MaxLogoBytes:
		h.writeError(w, r, tooLarge)
		return
	case err != nil:
		h.writeError(w, r, domain.Errorf(domain.EINVALID, "the logo could not be read: %v", err))
		return
	}
	out, err := h.env.App.PutCompanyLogo(r.Context(), principal(r), data, mt)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.profileDoc(out))
}

// deleteLogo handles DELETE /company/profile/logo: 204; 404 when there is
// none.
func (h *handlers) deleteLogo(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteCompanyLogo(r.Context(), principal(r)); err != nil {
		h.writeError(w, r, err)
		return
	}
	noContent(w)
}

// isLogoPath reports whether the request is for the logo, whose body and
// answer are images, not JSON.
func isLogoPath(r *http.Request) bool { return strings.HasSuffix(httpapi.RoutePath(r), logoPath) }

// logoAccepted reports whether a request for the logo accepts an image
// (its GET answers one; its other answers are JSON:API, which acceptable
// checks).
func logoAccepted(r *http.Request) bool {
	if !isLogoPath(r) {
		return false
	}
	_, ok := httpapi.Preferred(r.Header.Values("Accept"), domain.LogoPNG, domain.LogoJPEG, domain.LogoSVG)
	return ok
}

// requireJSON is httpapi.RequireJSON for every route but the logo's.
// isSGSUpload reports whether a request writes an index series from an SGS
// CSV (PUT /indexes/{id}, text/csv: indexes.go).
func isSGSUpload(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return r.Method == http.MethodPut && mt == "text/csv" && sgsPath.MatchString(httpapi.RoutePath(r))
}

var sgsPath = regexp.MustCompile(`/indexes/[^/]+$`)

func (h *handlers) requireJSON(next http.Handler) http.Handler {
	json := httpapi.RequireJSON(h.writeError)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isLogoPath(r) || isSGSUpload(r) || isSheetUpload(r) {
			next.ServeHTTP(w, r)
			return
		}
		json.ServeHTTP(w, r)
	})
}
