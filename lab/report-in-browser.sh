#!/usr/bin/env bash
# `cargo pilot report` in a real browser: measures a few of the example benches with a short
# cap (a group, a sweep, a readings-only bench, a warm-up), writes the report, renders it with
# headless Chromium (installed with apt-get when missing) and fails on a blank or broken page:
# every <svg> of the rendered DOM must hold drawn elements, and the screenshot must not be one
# colour. Usage: bash lab/report-in-browser.sh   (about a minute after the build on 2 cores)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$root/target/report-browser
mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  apt-get install -y -q chromium >/dev/null || { echo "cannot install chromium"; exit 1; }
  browser=$(command -v chromium)
fi
cd "$root"
cargo build -q -p cargo-pilot
pilot=$root/target/debug/cargo-pilot
# The workspace's target directory (its builds are reused): the page shows the latest results,
# these benches' among them.
"$pilot" pilot bench -p pilot-examples --bench groups --bench readings_only --bench warm_up \
  --max-time 0.5 > "$out/bench.log" 2>&1 || { tail -20 "$out/bench.log"; exit 1; }
start=$(date +%s.%N)
"$pilot" pilot report --out "$out/page"
end=$(date +%s.%N)
python3 -c "print(f'report written in {$end - $start:.2f} s')"
page=$out/page/index.html
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run)
"$browser" "${flags[@]}" --dump-dom "file://$page" > "$out/dom.html" 2> "$out/browser.log"
"$browser" "${flags[@]}" --window-size=1400,2400 --screenshot="$out/page.png" \
  "file://$page" >> "$out/browser.log" 2>&1
python3 - "$out/dom.html" "$out/page.png" <<'EOF'
import re, struct, sys, zlib

dom = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg\b.*?</svg>", dom, re.S)
if not svgs:
    sys.exit("no <svg> in the rendered page")
for i, svg in enumerate(svgs):
    drawn = len(re.findall(r"<(rect|path|circle|polyline|polygon|line)\b", svg))
    if drawn < 10:
        sys.exit(f"plot {i} has {drawn} drawn elements: blank")
for section in ("groups", "sweeps", "benches"):
    if f'id="{section}"' not in dom:
        sys.exit(f"no {section} section in the rendered page")
if re.search(r"https?://", dom):
    sys.exit("the page references the network")

# The screenshot, decoded with zlib: an 8-bit RGB(A) PNG without interlacing.
data = open(sys.argv[2], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height, depth, colour = 8, b"", 0, 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
bpp = 3 if colour == 2 else 4
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
colours = set()
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 8 == 0:
        for x in range(0, stride, bpp * 8):
            colours.add(bytes(line[x:x + 3]))
    prev = line
if len(colours) < 8:
    sys.exit(f"the screenshot has {len(colours)} colours: a blank page")
print(f"ok: {len(svgs)} plots drawn, screenshot {width}x{height} with {len(colours)} sampled colours")
EOF
