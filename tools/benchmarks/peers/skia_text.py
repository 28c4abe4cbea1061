#!/usr/bin/env python3
"""Skia peer of text-benchmark (issue 20 "Must show": the text benchmark next to Skia).

Draws the same text as tools/benchmarks/Sources/TextBenchmark/main.swift, from the same
generator (text_line below mirrors `textLine` there), into a 1920x1080 premultiplied RGBA8
raster surface, and prints one line per scene:

    peer skia-<scene> <median ms per frame>

Scenes:
  glyphs    50 lines of 200 characters (10,000 glyphs) at 14 px, 21 px apart; every line's text
            changes every frame (the window into the word list moves by the frame number).
  fontsize  100 labels ("Label 00" ... "Label 99") on a 10x10 grid of 192x108 cells, each at the
            font size its fontSize animation has at the frame's time (10 -> 40 px over
            2 s + 0.01 s x index, linear, autoreversed, repeating; frames 1/60 s apart).

Skia here is skia-python (pip install skia-python) on its CPU raster backend: this machine has no
GPU and skia-python makes no headless GL context of its own. Skia's drawString maps characters to
glyphs one to one (no HarfBuzz shaping, no bidi, no line breaking), which is less work than
Core Text's layout; the engine does all three. Each frame ends with the pixels in memory, as the
engine's frames end with a read-back.

usage: skia_text.py FONT_FILE [frames] [glyphs|fontsize ...]
"""
import sys
import time

import skia

WIDTH, HEIGHT = 1920, 1080
WORDS = ["Core", "Animation", "renders", "text", "with", "glyph", "quads", "from", "an", "atlas",
         "every", "frame", "changes", "the", "string", "0123456789"]
LINES, CHARS, FONT_PX, LINE_STEP = 50, 200, 14.0, 21.0
SOURCE = " ".join(WORDS) + " "


def text_line(frame, line):
    """Characters [start, start + 200) of the word list repeated, start = (frame * 7 + line * 13)
    mod its length (the same as textLine in main.swift)."""
    start = (frame * 7 + line * 13) % len(SOURCE)
    reps = (start + CHARS) // len(SOURCE) + 1
    return (SOURCE * reps)[start:start + CHARS]


def label_size(index, t):
    """fontSize of label `index` at time t: 10 -> 40 over d = 2 + 0.01 * index seconds, then
    back (autoreverses), repeating."""
    d = 2.0 + 0.01 * index
    phase = t % (2.0 * d)
    f = phase / d if phase < d else (2.0 * d - phase) / d
    return 10.0 + 30.0 * f


def main():
    font_file = sys.argv[1]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    scenes = sys.argv[3:] or ["glyphs", "fontsize"]
    typeface = skia.Typeface.MakeFromFile(font_file)
    if typeface is None:
        sys.exit(f"skia_text.py: cannot read {font_file}")
    surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(WIDTH, HEIGHT, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType))
    canvas = surface.getCanvas()
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorWHITE)
    font = skia.Font(typeface, FONT_PX)
    font.setEdging(skia.Font.Edging.kAntiAlias)
    font.setSubpixel(True)
    font.setHinting(skia.FontHinting.kNone)
    ascent = -font.getMetrics().fAscent

    def draw_glyphs(frame):
        canvas.clear(skia.ColorTRANSPARENT)
        for i in range(LINES):
            canvas.drawString(text_line(frame, i), 0, i * LINE_STEP + ascent, font, paint)

    def draw_fontsize(frame):
        canvas.clear(skia.ColorTRANSPARENT)
        t = frame / 60.0
        f = skia.Font(typeface, 10)
        f.setEdging(skia.Font.Edging.kAntiAlias)
        f.setSubpixel(True)
        f.setHinting(skia.FontHinting.kNone)
        for k in range(100):
            size = label_size(k, t)
            f.setSize(size)
            x, y = (k % 10) * 192.0, (k // 10) * 108.0
            canvas.drawString(f"Label {k:02d}", x, y + size * 1.069, f, paint)

    for scene in scenes:
        draw = draw_glyphs if scene == "glyphs" else draw_fontsize
        draw(0)
        surface.flushAndSubmit()
        times = []
        for frame in range(1, frames + 1):
            t0 = time.perf_counter()
            draw(frame)
            surface.flushAndSubmit()
            pixels = surface.makeImageSnapshot().tobytes()
            times.append((time.perf_counter() - t0) * 1000)
            assert len(pixels) == WIDTH * HEIGHT * 4
        times.sort()
        print(f"peer skia-{scene} {times[len(times) // 2]:.3f}", flush=True)


if __name__ == "__main__":
    main()
