package benchfix

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// A generated company (issue 29's load): many own resources and own
// compositions of about 20 items each, over the sample SINAPI MG 08/2026
// (the items of ItemCodes) and the company's own resources, written straight
// through the store's transactions in batches (the request path would take
// minutes for 100,000 records).

// Company is what GenerateCompany wrote.
type Company struct {
	Compositions []string // IDs, in creation order
	Resources    []string // codes, in creation order
	// The time the resources and the compositions took to write.
	ResourcesTook, CompositionsTook time.Duration
}

// materials name the own resources; one in ten is a masonry block, so that
// filter[description]=alvenaria matches a tenth of the company.
var materials = []string{
	"BLOCO CERÂMICO PARA ALVENARIA DE VEDAÇÃO", "ARGAMASSA DE ASSENTAMENTO", "AREIA MÉDIA LAVADA",
	"CIMENTO PORTLAND CP II-32", "TUBO PVC ESGOTO", "CONCRETO USINADO FCK 25 MPA", "AÇO CA-50",
	"TELHA CERÂMICA TIPO ROMANA", "PORCELANATO ESMALTADO", "TINTA ACRÍLICA PREMIUM",
}

// services name the own compositions.
var services = []string{
	"ALVENARIA DE VEDAÇÃO COM BLOCO CERÂMICO", "CHAPISCO EM PAREDE", "EMBOÇO EM ARGAMASSA",
	"CONTRAPISO EM ARGAMASSA", "PINTURA ACRÍLICA EM PAREDE", "FORMA DE MADEIRA PARA PILAR",
	"ARMAÇÃO DE VIGA COM AÇO CA-50", "CONCRETAGEM DE LAJE", "ASSENTAMENTO DE PISO", "INSTALAÇÃO DE TUBO PVC",
}

// GenerateCompany writes, for the company of the user with the email, res
// own resources (codes R000000…, priced in MG) and comps own compositions in
// MG (codes C00000…) of items items each: items-4 distinct lines of
// ItemCodes from the sample SINAPI MG 08/2026 (attached to each) and 4 own
// resources chosen at random (fewer when res < 4). The random choices follow
// seed. st should be the store the service runs on (through app/storecache,
// so that the writes move the company's generations). Records are put in
// batches of 2,000 a transaction.
func GenerateCompany(ctx context.Context, st app.Store, email string, comps, res, items int, seed uint64) (*Company, error) {
	if comps > 0 && items > len(ItemCodes)+4 {
		return nil, fmt.Errorf("at most %d items a composition", len(ItemCodes)+4)
	}
	var p domain.Principal
	err := st.View(ctx, func(tx app.Tx) error {
		u, err := tx.UserByEmail(email)
		if err != nil {
			return err
		}
		p = domain.Principal{UserID: u.ID, CompanyID: u.CompanyID, DepartmentID: u.DepartmentID}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 29))
	now := time.Now().UTC()
	out := &Company{}
	const batch = 2000
	t0 := time.Now()
	for start := 0; start < res; start += batch {
		var rs []*domain.Resource
		for i := start; i < min(start+batch, res); i++ {
			pnd := decimal.New(int64(100+rng.IntN(99900)), -2)
			r := &domain.Resource{
				ID: app.NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID,
				Code:        fmt.Sprintf("R%06d", i),
				Description: fmt.Sprintf("%s %dX%dX%d CM Nº %d", materials[rng.IntN(len(materials))], 9+rng.IntN(10), 14+rng.IntN(10), 19+rng.IntN(20), i),
				Type:        4, Unit: "UN", Status: true,
				Locals:    map[string]domain.PriceLine{"MG": {PND: pnd, PD: pnd.Mul(decimal.New(97, -2)).Round(2)}},
				CreatedAt: now,
			}
			if err := r.Validate(); err != nil {
				return nil, err
			}
			rs = append(rs, r)
			out.Resources = append(out.Resources, r.Code)
		}
		if err := st.Update(ctx, func(tx app.Tx) error {
			for _, r := range rs {
				if err := tx.PutResource(r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	out.ResourcesTook = time.Since(t0)
	t0 = time.Now()
	banks := []domain.BankRef{{Name: "SINAPI", State: "MG", Month: "08/2026"}}
	for start := 0; start < comps; start += batch {
		var cs []*domain.Composition
		for i := start; i < min(start+batch, comps); i++ {
			c := &domain.Composition{
				ID: app.NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID,
				Code:        fmt.Sprintf("C%05d", i),
				Description: fmt.Sprintf("%s Nº %d", services[rng.IntN(len(services))], i),
				Type:        "PARE", Unit: "M2", State: "MG", Rounding: domain.DefaultRounding(false),
				Banks: banks, CreatedAt: now,
			}
			own := min(4, len(out.Resources), items)
			for _, k := range rng.Perm(len(ItemCodes))[:items-own] {
				it := ItemCodes[k]
				kind := domain.KindComposition
				if it.Resource {
					kind = domain.KindResource
				}
				c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: it.Code, Kind: kind, Quantity: decimal.New(int64(1+rng.IntN(5000)), -3)})
			}
			seen := map[string]bool{}
			for len(seen) < own {
				code := out.Resources[rng.IntN(len(out.Resources))]
				if seen[code] {
					continue
				}
				seen[code] = true
				c.Items = append(c.Items, domain.Item{Bank: domain.BankMyBase, Code: code, Kind: domain.KindResource, Quantity: decimal.New(int64(1+rng.IntN(5000)), -3)})
			}
			if err := c.Validate(); err != nil {
				return nil, err
			}
			cs = append(cs, c)
			out.Compositions = append(out.Compositions, c.ID)
		}
		if err := st.Update(ctx, func(tx app.Tx) error {
			for _, c := range cs {
				if err := tx.PutComposition(c); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	out.CompositionsTook = time.Since(t0)
	return out, nil
}

// AddCompany adds a company with one user (email) to the fixture's service
// and returns the user's access token.
func (f *Fixture) AddCompany(name, email string) string {
	nu, err := f.Svc.AddUser(context.Background(), app.NewUserInput{Company: name, Email: email})
	Must(err)
	st, _, b := Do(f.URL+"/api/public/v2/authenticate", "POST", "", `{"email":"`+email+`","secret_token":"`+nu.SecretToken+`"}`)
	Expect(st, 200, b, "authenticate")
	var auth struct {
		Data struct {
			Attributes struct {
				AccessToken string `json:"access_token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	Must(json.Unmarshal(b, &auth))
	return auth.Data.Attributes.AccessToken
}
