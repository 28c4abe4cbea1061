#!/usr/bin/python3
"""Renders every coreAnimation snapshot of ../shared/corpora/lottie-ios/MANIFEST.tsv with
carender and compares it with lottie-ios's render (corpus README): both composited on white,
a slight Gaussian blur (sigma 2 px: Apple's gradients are dithered), then a case passes when at
most 1.5 % of pixels differ by more than 32 in any channel. Prints the pass rate and the failing
list. Usage: tools/lottie-corpus.sh [CARENDER] [OUTDIR] [FILTER]"""
import csv, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
from PIL import Image, ImageFilter
import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "..", "shared", "corpora", "lottie-ios")
carender = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build", "debug", "carender")
outdir = sys.argv[2] if len(sys.argv) > 2 else "/tmp/lottie-corpus"
flt = sys.argv[3] if len(sys.argv) > 3 else ""
os.makedirs(outdir, exist_ok=True)
if not os.path.isdir(corpus):
    print("lottie corpus: ../shared/corpora/lottie-ios is absent; skipped"); sys.exit(0)

rows = [r for r in csv.DictReader(open(os.path.join(corpus, "MANIFEST.tsv")), delimiter="\t")
        if r["engine"] == "coreAnimation" and flt in r["snapshot"]]

def on_white(img):
    img = img.convert("RGBA")
    bg = Image.new("RGBA", img.size, (255, 255, 255, 255))
    bg.alpha_composite(img)
    return bg.convert("RGB")

def run(r):
    name = os.path.basename(r["snapshot"])[len("testCoreAnimationRenderingEngine."):]
    out = os.path.join(outdir, name)
    fps, ip = float(r["fps"]), float(r["ip"])
    t = max(0.0, (float(r["frame"]) - ip) / fps)
    cmd = [carender, "render", os.path.join(corpus, r["sample"]), "-o", out, "--quiet", "--time", repr(t),
           # The view in pixels at scale 1 (the same picture as pt × scale; points may be fractional).
           "--size", f'{r["px_w"]}x{r["px_h"]}', "--scale", "1"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return name, None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"
    ref = on_white(Image.open(os.path.join(corpus, r["snapshot"])))
    got = on_white(Image.open(out))
    if got.size != ref.size:
        return name, None, f"size {got.size} vs {ref.size}"
    a = np.asarray(ref.filter(ImageFilter.GaussianBlur(2)), dtype=np.int16)
    b = np.asarray(got.filter(ImageFilter.GaussianBlur(2)), dtype=np.int16)
    frac = float((np.abs(a - b).max(axis=2) > 32).mean())
    return name, frac, ""

with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as ex:
    results = list(ex.map(run, rows))
passed = [r for r in results if r[1] is not None and r[1] <= 0.015]
failed = [r for r in results if not (r[1] is not None and r[1] <= 0.015)]
for name, frac, err in sorted(failed):
    print(f"FAIL {name}: " + (f"{frac * 100:.2f} % of pixels differ" if frac is not None else err))
print(f"lottie corpus: {len(passed)} of {len(results)} coreAnimation snapshots pass ({100 * len(passed) / max(len(results), 1):.1f} %)")
