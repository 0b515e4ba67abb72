package reports

import (
	"bytes"
	"errors"
	"image/color"
	"image/jpeg"
	"image/png"

	"github.com/klauspost/compress/zlib"
)

// pdfImage is an image as the PDF writer embeds it (an image XObject):
// its size in pixels, colour space, filter and data, and for an image with
// transparency its alpha as a soft mask (DeviceGray, deflated).
type pdfImage struct {
	w, h   int
	color  string // DeviceRGB, DeviceGray or DeviceCMYK
	filter string // DCTDecode (JPEG as it is) or FlateDecode
	decode string // the Decode array, "" for the default
	data   []byte
	smask  []byte
	res    string // Im1, Im2… (newPDFWriter)
	obj    int    // its object; the soft mask the next one
}

// errLogoFormat is the answer for a logo the writer cannot draw (an SVG,
// or bytes that are not a PNG or JPEG image).
var errLogoFormat = errors.New("reports: the logo is not a PNG or JPEG image")

// pdfLogo makes a company's logo an image the PDF writer embeds: a JPEG
// (told by its bytes, not by the media type stored with it) as it is
// (DCTDecode, the file's own bytes), a PNG decoded and written
// as RGB deflated, its alpha as a soft mask when a pixel is not opaque.
// An SVG cannot be drawn by this writer (it would need a vector renderer):
// errLogoFormat, as for anything else, and the document leaves the logo
// out (docs/decisions.md, "PDF with a writer of our own and the embedded Go fonts").
func pdfLogo(b []byte) (*pdfImage, error) {
	switch {
	case bytes.HasPrefix(b, []byte("\xff\xd8")):
		return pdfJPEG(b)
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return pdfPNG(b)
	}
	return nil, errLogoFormat
}

func pdfJPEG(b []byte) (*pdfImage, error) {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	im := &pdfImage{w: cfg.Width, h: cfg.Height, filter: "DCTDecode", data: b}
	switch cfg.ColorModel {
	case color.GrayModel:
		im.color = "DeviceGray"
	case color.CMYKModel:
		// Adobe's CMYK JPEGs store the inks inverted.
		im.color, im.decode = "DeviceCMYK", "[1 0 1 0 1 0 1 0]"
	default:
		im.color = "DeviceRGB"
	}
	return im, nil
}

func pdfPNG(b []byte) (*pdfImage, error) {
	src, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	r := src.Bounds()
	w, h := r.Dx(), r.Dy()
	rgb := make([]byte, 0, 3*w*h)
	alpha := make([]byte, 0, w*h)
	opaque := true
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
			rgb = append(rgb, c.R, c.G, c.B)
			alpha = append(alpha, c.A)
			opaque = opaque && c.A == 0xff
		}
	}
	im := &pdfImage{w: w, h: h, color: "DeviceRGB", filter: "FlateDecode", data: deflate(rgb)}
	if !opaque {
		im.smask = deflate(alpha)
	}
	return im, nil
}

// deflate is b compressed by zlib (the FlateDecode filter).
func deflate(b []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

// writeImage writes im's object (and its soft mask's).
func (pw *pdfWriter) writeImage(im *pdfImage) {
	pw.begin(im.obj)
	pw.printf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /%s /BitsPerComponent 8 /Filter /%s /Length %d",
		im.w, im.h, im.color, im.filter, len(im.data))
	if im.decode != "" {
		pw.printf(" /Decode %s", im.decode)
	}
	if im.smask != nil {
		pw.printf(" /SMask %d 0 R", im.obj+1)
	}
	pw.printf(" >>\nstream\n")
	pw.write(im.data)
	pw.printf("\nendstream\n")
	pw.end()
	if im.smask != nil {
		pw.begin(im.obj + 1)
		pw.printf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n",
			im.w, im.h, len(im.smask))
		pw.write(im.smask)
		pw.printf("\nendstream\n")
		pw.end()
	}
}
