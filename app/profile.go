package app

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// A company's profile is kept in two settings of the store (the key/value
// port every store has, so both engines keep it alike and migrate copies
// it): its fields as JSON under "company/<id>/profile", its logo's bytes
// as they came under "company/<id>/logo", so that reading the fields never
// reads the logo. docs/profile.md.
const companySettingPrefix = "company/"

func profileKey(companyID string) string { return companySettingPrefix + companyID + "/profile" }
func logoKey(companyID string) string    { return companySettingPrefix + companyID + "/logo" }

// SettingCompany returns the company a setting's key belongs to ("" and
// false for a setting of the whole server), for the speed layer's write
// generations: a profile write changes its company's answers only.
func SettingCompany(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, companySettingPrefix)
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, "/")
	return id, ok && id != ""
}

// profileRecord is the stored form of a profile's fields.
type profileRecord struct {
	LegalName        string    `json:"legal_name,omitempty"`
	CNPJ             string    `json:"cnpj,omitempty"`
	Address          string    `json:"address,omitempty"`
	EngineerName     string    `json:"engineer_name,omitempty"`
	EngineerRegistry string    `json:"engineer_registry,omitempty"`
	LogoType         string    `json:"logo_type,omitempty"`
	LogoSize         int       `json:"logo_size,omitempty"`
	UpdatedAt        time.Time `json:"updated_at"`
}

// ProfileInfo is a company's profile as the API shows it: the fields, and
// of the logo only its media type and size (LogoSize 0: no logo).
type ProfileInfo struct {
	domain.CompanyProfile
	LogoSize int
}

// readProfile reads the company's stored profile fields; nil when none.
func readProfile(tx Tx, companyID string) (*profileRecord, error) {
	b, err := tx.Setting(profileKey(companyID))
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var r profileRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, domain.Errorf(domain.EINTERNAL, "profile of company %s: %v", companyID, err)
	}
	return &r, nil
}

func putProfile(tx Tx, companyID string, r *profileRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return tx.PutSetting(profileKey(companyID), b)
}

func (r *profileRecord) info(companyID string) *ProfileInfo {
	out := &ProfileInfo{CompanyProfile: domain.CompanyProfile{CompanyID: companyID}}
	if r == nil {
		return out
	}
	out.LegalName, out.CNPJ, out.Address = r.LegalName, r.CNPJ, r.Address
	out.EngineerName, out.EngineerRegistry = r.EngineerName, r.EngineerRegistry
	out.LogoType, out.LogoSize, out.UpdatedAt = r.LogoType, r.LogoSize, r.UpdatedAt
	return out
}

// CompanyProfile returns the caller's company's profile without the
// logo's bytes: every field empty (and UpdatedAt zero) when none was
// ever given.
func (s *Service) CompanyProfile(ctx context.Context, p domain.Principal) (*ProfileInfo, error) {
	var out *ProfileInfo
	err := s.store.View(ctx, func(tx Tx) error {
		r, err := readProfile(tx, p.CompanyID)
		out = r.info(p.CompanyID)
		return err
	})
	return out, err
}

// DocumentProfile returns the caller's company's profile with its logo,
// for the documents' header and signature block, in one read
// transaction; nil when the company has none.
func (s *Service) DocumentProfile(ctx context.Context, p domain.Principal) (*domain.CompanyProfile, error) {
	var out *domain.CompanyProfile
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = documentProfile(tx, p.CompanyID)
		return err
	})
	return out, err
}

// DocumentCompany returns what a client document shows of the caller's
// company: its name and its profile with the logo (nil when it has none),
// in one read transaction.
func (s *Service) DocumentCompany(ctx context.Context, p domain.Principal) (string, *domain.CompanyProfile, error) {
	var name string
	var prof *domain.CompanyProfile
	err := s.store.View(ctx, func(tx Tx) error {
		c, err := tx.Company(p.CompanyID)
		if err != nil {
			return err
		}
		name = c.Name
		prof, err = documentProfile(tx, p.CompanyID)
		return err
	})
	return name, prof, err
}

func documentProfile(tx Tx, companyID string) (*domain.CompanyProfile, error) {
	r, err := readProfile(tx, companyID)
	if err != nil || r == nil {
		return nil, err
	}
	prof := r.info(companyID).CompanyProfile
	if r.LogoType != "" {
		if prof.Logo, err = tx.Setting(logoKey(companyID)); err != nil {
			return nil, err
		}
		if len(prof.Logo) == 0 {
			prof.Logo, prof.LogoType = nil, ""
		}
	}
	return &prof, nil
}

// ProfilePatch names the profile's fields to change; nil fields stay.
type ProfilePatch struct {
	LegalName        *string
	CNPJ             *string
	Address          *string
	EngineerName     *string
	EngineerRegistry *string
}

// UpdateCompanyProfile changes the fields the patch names on the caller's
// company's profile (creating it on the first call) and returns it. Any
// user of the company may. EINVALID names every bad field at once
// (domain.CompanyProfile.Validate) and nothing is written.
func (s *Service) UpdateCompanyProfile(ctx context.Context, p domain.Principal, patch ProfilePatch) (*ProfileInfo, error) {
	var out *ProfileInfo
	err := s.store.Update(ctx, func(tx Tx) error {
		r, err := readProfile(tx, p.CompanyID)
		if err != nil {
			return err
		}
		if r == nil {
			r = &profileRecord{}
		}
		prof := domain.CompanyProfile{LegalName: r.LegalName, CNPJ: r.CNPJ, Address: r.Address,
			EngineerName: r.EngineerName, EngineerRegistry: r.EngineerRegistry}
		set(&prof.LegalName, patch.LegalName)
		set(&prof.CNPJ, patch.CNPJ)
		set(&prof.Address, patch.Address)
		set(&prof.EngineerName, patch.EngineerName)
		set(&prof.EngineerRegistry, patch.EngineerRegistry)
		if err := prof.Validate(); err != nil {
			return err
		}
		r.LegalName, r.CNPJ, r.Address = prof.LegalName, prof.CNPJ, prof.Address
		r.EngineerName, r.EngineerRegistry = prof.EngineerName, prof.EngineerRegistry
		r.UpdatedAt = s.now()
		out = r.info(p.CompanyID)
		return putProfile(tx, p.CompanyID, r)
	})
	return out, err
}

// CompanyLogo returns the caller's company's logo and its media type;
// ENOTFOUND when it has none.
func (s *Service) CompanyLogo(ctx context.Context, p domain.Principal) ([]byte, string, error) {
	var data []byte
	var typ string
	err := s.store.View(ctx, func(tx Tx) error {
		data, typ = nil, ""
		r, err := readProfile(tx, p.CompanyID)
		if err != nil {
			return err
		}
		if r != nil && r.LogoType != "" {
			if data, err = tx.Setting(logoKey(p.CompanyID)); err != nil {
				return err
			}
			typ = r.LogoType
		}
		if len(data) == 0 {
			return domain.Errorf(domain.ENOTFOUND, "the company has no logo")
		}
		return nil
	})
	return data, typ, err
}

// PutCompanyLogo sets the caller's company's logo (replacing any) after
// domain.CheckLogo: EINVALID on "/logo" when data is not an image of the
// media type or is too large, and nothing is written.
func (s *Service) PutCompanyLogo(ctx context.Context, p domain.Principal, data []byte, mediaType string) (*ProfileInfo, error) {
	if err := domain.CheckLogo("/logo", data, mediaType); err != nil {
		return nil, err
	}
	var out *ProfileInfo
	err := s.store.Update(ctx, func(tx Tx) error {
		r, err := readProfile(tx, p.CompanyID)
		if err != nil {
			return err
		}
		if r == nil {
			r = &profileRecord{}
		}
		r.LogoType, r.LogoSize, r.UpdatedAt = mediaType, len(data), s.now()
		if err := tx.PutSetting(logoKey(p.CompanyID), data); err != nil {
			return err
		}
		out = r.info(p.CompanyID)
		return putProfile(tx, p.CompanyID, r)
	})
	return out, err
}

// DeleteCompanyLogo removes the caller's company's logo; ENOTFOUND when it
// has none.
func (s *Service) DeleteCompanyLogo(ctx context.Context, p domain.Principal) error {
	return s.store.Update(ctx, func(tx Tx) error {
		r, err := readProfile(tx, p.CompanyID)
		if err != nil {
			return err
		}
		if r == nil || r.LogoType == "" {
			return domain.Errorf(domain.ENOTFOUND, "the company has no logo")
		}
		r.LogoType, r.LogoSize, r.UpdatedAt = "", 0, s.now()
		if err := tx.PutSetting(logoKey(p.CompanyID), []byte{}); err != nil {
			return err
		}
		return putProfile(tx, p.CompanyID, r)
	})
}
