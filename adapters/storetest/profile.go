package storetest

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// noisePNG is a PNG that compresses badly (a pseudo-random picture): a
// logo near the size cap, with every byte value in it.
func noisePNG(t *testing.T, side int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	x := uint32(2463534242)
	for i := 0; i < len(img.Pix); i += 4 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(x), byte(x>>8), byte(x>>16), 255
	}
	img.Set(0, 0, color.NRGBA{A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testCompanyProfiles runs the profile use cases (app/profile.go) over the
// store: the profile and its logo are company settings, kept per company,
// the logo's bytes exactly; a bad profile writes nothing.
func testCompanyProfiles(t *testing.T, s app.Store) {
	ctx := context.Background()
	svc := app.New(s, nil, app.Config{})
	a, b := domain.Principal{CompanyID: coA, UserID: "ua"}, domain.Principal{CompanyID: coB, UserID: "ub"}

	if got, err := svc.DocumentProfile(ctx, a); err != nil || got != nil {
		t.Fatalf("DocumentProfile before any = %+v, %v; want nil", got, err)
	}
	name, cnpj, reg := "Construtora Alfa Ltda", "12.345.678/0001-95", "CREA-MG 123456/D"
	if _, err := svc.UpdateCompanyProfile(ctx, a, app.ProfilePatch{LegalName: &name, CNPJ: &cnpj, EngineerRegistry: &reg}); err != nil {
		t.Fatal(err)
	}
	logo := noisePNG(t, 250)
	if len(logo) < domain.MaxLogoBytes/2 || len(logo) > domain.MaxLogoBytes {
		t.Fatalf("the test logo is %d bytes; want it near the cap", len(logo))
	}
	if _, err := svc.PutCompanyLogo(ctx, a, logo, domain.LogoPNG); err != nil {
		t.Fatal(err)
	}
	// A bad patch names its errors and changes nothing.
	badCNPJ, badName := "12.345.678/0001-94", string(bytes.Repeat([]byte("x"), domain.MaxLegalNameLen+1))
	_, err := svc.UpdateCompanyProfile(ctx, a, app.ProfilePatch{LegalName: &badName, CNPJ: &badCNPJ})
	if e, ok := err.(*domain.Error); !ok || e.Code != domain.EINVALID || len(e.Fields) != 2 {
		t.Errorf("a bad patch: %v; want EINVALID on two fields", err)
	}

	got, err := svc.DocumentProfile(ctx, a)
	if err != nil || got == nil {
		t.Fatalf("DocumentProfile(A) = %v, %v", got, err)
	}
	if got.CompanyID != coA || got.LegalName != name || got.CNPJ != "12345678000195" || got.EngineerRegistry != reg ||
		got.LogoType != domain.LogoPNG || !bytes.Equal(got.Logo, logo) || got.UpdatedAt.IsZero() {
		t.Errorf("DocumentProfile(A) = %+v (logo %d bytes); want what was written (logo %d bytes)", got, len(got.Logo), len(logo))
	}
	info, err := svc.CompanyProfile(ctx, a)
	if err != nil || info.LogoSize != len(logo) || info.Logo != nil || info.LegalName != name {
		t.Errorf("CompanyProfile(A) = %+v, %v; want the fields and the logo's size, not its bytes", info, err)
	}

	// Company B sees none of it.
	if got, err := svc.DocumentProfile(ctx, b); err != nil || got != nil {
		t.Errorf("DocumentProfile(B) = %+v, %v; want nil", got, err)
	}
	if info, err := svc.CompanyProfile(ctx, b); err != nil || info.LegalName != "" || info.LogoSize != 0 || info.CompanyID != coB {
		t.Errorf("CompanyProfile(B) = %+v, %v; want an empty profile", info, err)
	}
	if _, _, err := svc.CompanyLogo(ctx, b); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("CompanyLogo(B) = %v; want ENOTFOUND", err)
	}
	if err := svc.DeleteCompanyLogo(ctx, b); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("DeleteCompanyLogo(B) = %v; want ENOTFOUND", err)
	}

	// The logo goes; the fields stay.
	if err := svc.DeleteCompanyLogo(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CompanyLogo(ctx, a); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("CompanyLogo after delete = %v; want ENOTFOUND", err)
	}
	got, err = svc.DocumentProfile(ctx, a)
	if err != nil || got == nil || got.Logo != nil || got.LogoType != "" || got.LegalName != name {
		t.Errorf("DocumentProfile after delete = %+v, %v; want the fields without a logo", got, err)
	}
}
