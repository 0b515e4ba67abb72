package domain

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"strings"
	"time"
)

// The caps on a company profile (docs/profile.md).
const (
	MaxLegalNameLen        = 200
	MaxAddressLen          = 500
	MaxEngineerNameLen     = 200
	MaxEngineerRegistryLen = 60
	// MaxARTLen caps a budget's ART/RRT number (free text: the councils'
	// numbers differ in form from state to state).
	MaxARTLen = 60
	// MaxLogoBytes caps the logo's size, MaxLogoSide each side of a PNG or
	// JPEG logo in pixels (a small file may declare a huge image: decoding
	// it is bounded by this).
	MaxLogoBytes = 256 << 10
	MaxLogoSide  = 2048
)

// The media types a logo may have.
const (
	LogoPNG  = "image/png"
	LogoJPEG = "image/jpeg"
	LogoSVG  = "image/svg+xml"
)

// Validate checks the profile's fields, every problem at once, named by
// the JSON pointers of the v2 attributes ("/legal_name", "/cnpj"…). It
// normalises CNPJ to its 14 characters and trims the texts. The logo is
// checked apart (CheckLogo): it arrives on its own.
func (p *CompanyProfile) Validate() error {
	var v Validation
	p.LegalName = strings.TrimSpace(p.LegalName)
	p.Address = strings.TrimSpace(p.Address)
	p.EngineerName = strings.TrimSpace(p.EngineerName)
	p.EngineerRegistry = strings.TrimSpace(p.EngineerRegistry)
	checkText(&v, "/legal_name", p.LegalName, false, MaxLegalNameLen)
	checkText(&v, "/address", p.Address, false, MaxAddressLen)
	checkText(&v, "/engineer_name", p.EngineerName, false, MaxEngineerNameLen)
	checkText(&v, "/engineer_registry", p.EngineerRegistry, false, MaxEngineerRegistryLen)
	if s := strings.TrimSpace(p.CNPJ); s != "" {
		n, err := NormalizeCNPJ(s)
		if err != nil {
			v.Add("/cnpj", "%s", err.Error())
		} else {
			p.CNPJ = n
		}
	} else {
		p.CNPJ = ""
	}
	return v.Err()
}

// ruleError is a problem of a profile field, worded for a field error.
type ruleError string

func (e ruleError) Error() string { return string(e) }

// NormalizeCNPJ returns the 14 characters of a CNPJ given either bare
// ("12345678000195") or punctuated ("12.345.678/0001-95"), after checking
// its two check digits (modulo 11, weights 2…9 from the right). The first
// twelve characters may be letters (the alphanumeric CNPJ of the Receita
// Federal, issued from July 2026: a character counts as its ASCII code
// minus 48, so digits count as themselves); the check digits are digits.
// A CNPJ of one repeated digit passes the arithmetic and is refused.
func NormalizeCNPJ(s string) (string, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	var raw string
	switch len(s) {
	case 14:
		raw = s
	case 18:
		if s[2] != '.' || s[6] != '.' || s[10] != '/' || s[15] != '-' {
			return "", ruleError("must be 14 characters or written as 12.345.678/0001-95")
		}
		raw = s[0:2] + s[3:6] + s[7:10] + s[11:15] + s[16:18]
	default:
		return "", ruleError("must be 14 characters or written as 12.345.678/0001-95")
	}
	for i := 0; i < 14; i++ {
		c := raw[i]
		digit := c >= '0' && c <= '9'
		if !digit && (i >= 12 || c < 'A' || c > 'Z') {
			return "", ruleError("must be 14 characters or written as 12.345.678/0001-95")
		}
	}
	if strings.Count(raw, raw[:1]) == 14 {
		return "", ruleError("is not a CNPJ (one repeated digit)")
	}
	if raw[12] != cnpjDigit(raw[:12]) || raw[13] != cnpjDigit(raw[:13]) {
		return "", ruleError("has wrong check digits")
	}
	return raw, nil
}

// cnpjDigit is the check digit of the CNPJ's first len(s) characters.
func cnpjDigit(s string) byte {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		sum += int(s[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// FormatCNPJ prints a CNPJ of 14 characters as 12.345.678/0001-95; any
// other string is returned as it is.
func FormatCNPJ(s string) string {
	if len(s) != 14 {
		return s
	}
	return s[0:2] + "." + s[2:5] + "." + s[5:8] + "/" + s[8:12] + "-" + s[12:14]
}

// CheckLogo checks that data is a logo of the media type (LogoPNG,
// LogoJPEG, LogoSVG; parameters already removed): not empty, at most
// MaxLogoBytes, and really of that format. A PNG or JPEG must decode
// (sides at most MaxLogoSide); an SVG must be XML with an <svg> root and
// carry nothing a document could run or fetch: no script, no foreignObject,
// no event attribute (on…), no reference (href, xlink:href, src) but to a
// fragment of itself ("#id"), no url() but url(#id), no DOCTYPE or entity.
// Errors are EINVALID on field (the JSON pointer the caller names the
// logo by).
func CheckLogo(field string, data []byte, mediaType string) error {
	if len(data) == 0 {
		return FieldErrorf(field, "is empty")
	}
	if len(data) > MaxLogoBytes {
		return FieldErrorf(field, "is larger than %d bytes", MaxLogoBytes)
	}
	var err error
	switch mediaType {
	case LogoPNG:
		err = checkRaster(data, png.DecodeConfig, png.Decode, "PNG")
	case LogoJPEG:
		err = checkRaster(data, jpeg.DecodeConfig, jpeg.Decode, "JPEG")
	case LogoSVG:
		err = checkSVG(data)
	default:
		return FieldErrorf(field, "must be %s, %s or %s", LogoPNG, LogoJPEG, LogoSVG)
	}
	if err != nil {
		return FieldErrorf(field, "%s", err.Error())
	}
	return nil
}

func checkRaster(data []byte, config func(io.Reader) (image.Config, error), decode func(io.Reader) (image.Image, error), name string) error {
	c, err := config(bytes.NewReader(data))
	if err != nil {
		return ruleError("is not a " + name + " image")
	}
	if c.Width <= 0 || c.Height <= 0 || c.Width > MaxLogoSide || c.Height > MaxLogoSide {
		return ruleError(name + " image sides must be 1 to 2048 pixels")
	}
	if _, err := decode(bytes.NewReader(data)); err != nil {
		return ruleError("is not a whole " + name + " image")
	}
	return nil
}

// checkSVG is CheckLogo's rule for SVG.
func checkSVG(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return ruleError("is not well-formed SVG (XML)")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if t.Name.Local != "svg" || roots > 1 {
					return ruleError("is not an SVG image (the root must be <svg>)")
				}
			}
			depth++
			switch strings.ToLower(t.Name.Local) {
			case "script", "foreignobject", "iframe", "embed", "object":
				return ruleError("SVG must not carry <" + t.Name.Local + ">")
			}
			for _, a := range t.Attr {
				if err := checkSVGAttr(a); err != nil {
					return err
				}
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return ruleError("is not an SVG image (text outside <svg>)")
			}
			if hasRemoteURL(string(t)) {
				return ruleError("SVG must not refer to anything outside itself (url(...))")
			}
		case xml.Directive:
			return ruleError("SVG must not carry a DOCTYPE or entity declaration")
		case xml.ProcInst:
			if t.Target != "xml" {
				return ruleError("SVG must not carry processing instructions")
			}
		}
	}
	if roots == 0 {
		return ruleError("is not an SVG image (no <svg> root)")
	}
	return nil
}

func checkSVGAttr(a xml.Attr) error {
	name := strings.ToLower(a.Name.Local)
	val := strings.TrimSpace(a.Value)
	switch {
	case strings.HasPrefix(name, "on"):
		return ruleError("SVG must not carry event attributes (" + a.Name.Local + ")")
	case name == "href" || name == "src" || name == "base":
		if !strings.HasPrefix(val, "#") {
			return ruleError("SVG must not refer to anything outside itself (" + a.Name.Local + ")")
		}
	case name == "attributename" && (strings.HasPrefix(strings.ToLower(val), "on") || strings.Contains(strings.ToLower(val), "href")):
		// An animation (<set>, <animate>) that would write an event
		// handler or a link.
		return ruleError("SVG must not animate " + val)
	case hasRemoteURL(val):
		return ruleError("SVG must not refer to anything outside itself (url(...) in " + a.Name.Local + ")")
	}
	if strings.Contains(strings.ToLower(val), "javascript:") {
		return ruleError("SVG must not carry script")
	}
	return nil
}

// hasRemoteURL reports whether CSS text has a url(...) or @import that is
// not a fragment of the document ("url(#clip)").
func hasRemoteURL(s string) bool {
	l := strings.ToLower(s)
	if strings.Contains(l, "@import") {
		return true
	}
	for {
		i := strings.Index(l, "url(")
		if i < 0 {
			return false
		}
		rest := strings.TrimLeft(l[i+4:], " \t\r\n'\"")
		if !strings.HasPrefix(rest, "#") {
			return true
		}
		l = l[i+4:]
	}
}

// CheckIssueDate checks a budget's issue date: "" (none) or a date
// written "2006-01-02".
func CheckIssueDate(v *Validation, field, s string) {
	if s == "" {
		return
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil || len(s) != 10 {
		v.Add(field, "must be a date written YYYY-MM-DD")
	}
}
