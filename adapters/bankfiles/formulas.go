package bankfiles

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/xuri/excelize/v2"
)

// This file reads formulas as a stream: the composition codes of the
// national workbook are HYPERLINK formulas without a stored value, which
// excelize's row stream does not carry and whose only excelize reader,
// GetCellFormula, holds the whole worksheet in memory (about 200 MB for a
// full-size composition sheet). The sheet's part is found from
// xl/workbook.xml and its relationships, then walked token by token; one
// formula is held at a time. The XML guard has already bounded the part's
// depth and tokens (checkWorkbook).

// errFormulaFallback says that the stream cannot tell a formula that
// excelize can: a shared formula without its text, or a cell without its
// reference.
var errFormulaFallback = errors.New("formula needs excelize")

// sheetPart returns the zip entry of the worksheet named sheet.
func sheetPart(zr *zip.Reader, sheet string) (*zip.File, error) {
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(f.Name, "\\", "/"), "/"))] = f
	}
	decode := func(name string, v any) error {
		f := files[name]
		if f == nil {
			return errors.New(name + " is missing")
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		return xml.NewDecoder(rc).Decode(v)
	}
	var book struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := decode("xl/workbook.xml", &book); err != nil {
		return nil, err
	}
	var rels struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := decode("xl/_rels/workbook.xml.rels", &rels); err != nil {
		return nil, err
	}
	for _, s := range book.Sheets {
		if s.Name != sheet {
			continue
		}
		for _, r := range rels.Rel {
			if r.ID != s.RID {
				continue
			}
			target := r.Target
			if strings.HasPrefix(target, "/") {
				target = strings.TrimPrefix(target, "/")
			} else {
				target = path.Join("xl", target)
			}
			if f := files[strings.ToLower(target)]; f != nil {
				return f, nil
			}
		}
	}
	return nil, errors.New("no part for sheet " + sheet)
}

// streamFormulas returns the formula text of column col (0-based) at each
// of rows, read as a stream from the workbook at path.
func streamFormulas(ctx context.Context, bookPath, sheet string, col int, rows map[int]bool) (map[int]string, error) {
	zr, err := zip.OpenReader(bookPath)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	part, err := sheetPart(&zr.Reader, sheet)
	if err != nil {
		return nil, err
	}
	rc, err := part.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	out := make(map[int]string, len(rows))
	want, row, inF, shared := false, 0, false, false
	var text strings.Builder
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.RawToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "c":
				ref := ""
				for _, a := range t.Attr {
					if a.Name.Local == "r" {
						ref = a.Value
					}
				}
				if ref == "" {
					return nil, errFormulaFallback
				}
				c, r, err := excelize.CellNameToCoordinates(ref)
				if err != nil {
					return nil, err
				}
				want, row = c == col+1 && rows[r], r
			case "f":
				if want {
					inF, shared = true, false
					text.Reset()
					for _, a := range t.Attr {
						if a.Name.Local == "t" && a.Value == "shared" {
							shared = true
						}
					}
				}
			}
		case xml.CharData:
			if inF {
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "f":
				if inF {
					inF = false
					if shared && text.Len() == 0 {
						return nil, errFormulaFallback
					}
					out[row] = text.String()
				}
			case "c":
				want = false
			}
		}
	}
}
