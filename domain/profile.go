package domain

import "time"

// CompanyProfile is what a company prints on the documents it hands over:
// its registered identity, its logo and the engineer who signs. One per
// company; every field may be empty (a document then leaves its line out).
type CompanyProfile struct {
	CompanyID string
	// LegalName is the razão social; CNPJ its 14 digits, without the
	// punctuation (FormatCNPJ prints it).
	LegalName string
	CNPJ      string
	Address   string
	// The responsible engineer or architect and their registration:
	// "CREA-MG 123456/D" or "CAU A123456-7".
	EngineerName     string
	EngineerRegistry string
	// Logo is the image itself (PNG, JPEG or SVG, LogoType its media type),
	// nil when there is none.
	Logo      []byte
	LogoType  string
	UpdatedAt time.Time
}
