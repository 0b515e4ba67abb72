#!/usr/bin/env bash
# Renders page 1 of every client document to PNG under docs/documents/:
# go run ./tools/documents writes the documents of a demo budget (bundled
# SINAPI MG sample, fixed clock) into a scratch directory; LibreOffice turns
# each XLSX into PDF and pdftoppm page 1 of each PDF into a PNG; a CSV is
# shown as LibreOffice opens it (to HTML, chromium's screenshot); the SVG
# charts by rsvg-convert, else chromium headless. A missing tool skips
# its documents with a message. Run from anywhere: `task documents` or
# `bash tools/documents/render.sh`.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
dest="$root/docs/documents"
res=${RES:-70}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest" "$work/files" "$work/pdf" "$work/html" "$work/home"

(cd "$root" && go run ./tools/documents -out "$work/files") >/dev/null

have() { command -v "$1" >/dev/null 2>&1; }
soffice_bin=""
for c in soffice libreoffice; do
	if have "$c"; then soffice_bin=$c; break; fi
done
chromium_bin=""
for c in chromium chromium-browser google-chrome; do
	if have "$c"; then chromium_bin=$c; break; fi
done

# topdf FILE: LibreOffice converts a workbook to PDF in $work/pdf.
topdf() {
	HOME="$work/home" "$soffice_bin" --headless --convert-to pdf --outdir "$work/pdf" "$1" >/dev/null 2>&1
}

# page1 PDF NAME: page 1 of the PDF as docs/documents/NAME.png.
page1() {
	pdftoppm -png -r "$res" -f 1 -l 1 -singlefile "$1" "$dest/$2"
	echo "docs/documents/$2.png"
}

if have pdftoppm; then
	for f in "$work"/files/*.pdf; do
		page1 "$f" "$(basename "$f" .pdf)-pdf"
	done
	if [ -n "$soffice_bin" ]; then
		for f in "$work"/files/*.xlsx; do
			n=$(basename "$f" .xlsx)
			topdf "$f"
			page1 "$work/pdf/$n.pdf" "$n-xlsx"
		done
	else
		echo "LibreOffice (soffice) not installed: XLSX pages skipped" >&2
	fi
else
	echo "pdftoppm (poppler-utils) not installed: PDF and XLSX pages skipped" >&2
fi

# A CSV as a pt-BR spreadsheet opens it (';' separated, '"' quoted, UTF-8:
# LibreOffice's CSV filter options 59,34,76), the sheet's first screen:
# LibreOffice writes it as an HTML table, chromium takes a screenshot (a CSV
# has no print setup, so its printed page 1 would show three columns).
if [ -n "$soffice_bin" ] && [ -n "$chromium_bin" ]; then
	for f in "$work"/files/*.csv; do
		n=$(basename "$f" .csv)
		HOME="$work/home" "$soffice_bin" --headless --infilter="CSV:59,34,76,1" --convert-to html --outdir "$work/html" "$f" >/dev/null 2>&1
		"$chromium_bin" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
			--window-size=1400,600 --screenshot="$dest/$n-csv.png" "file://$work/html/$n.html" >/dev/null 2>&1
		echo "docs/documents/$n-csv.png"
	done
else
	echo "LibreOffice or chromium not installed: CSV pages skipped" >&2
fi

for f in "$work"/files/*.svg; do
	n=$(basename "$f" .svg)
	if have rsvg-convert; then
		rsvg-convert --background-color=white -o "$dest/$n-svg.png" "$f"
	elif [ -n "$chromium_bin" ]; then
		# The chart's own size (width and height of the <svg>) is the window.
		size=$(sed -n 's/.*<svg[^>]* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1,\2/p' "$f" | head -1 | awk -F, '{printf "%d,%d", $1+0.5, $2+0.5}')
		"$chromium_bin" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
			--window-size="${size:-1000,600}" --screenshot="$dest/$n-svg.png" "file://$f" >/dev/null 2>&1
	else
		echo "neither rsvg-convert nor chromium installed: $n.svg skipped" >&2
		continue
	fi
	echo "docs/documents/$n-svg.png"
done
