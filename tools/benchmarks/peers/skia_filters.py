#!/usr/bin/env python3
"""Skia peer of filter-benchmark (issue 24 "Must show": 1920x1080 with 20 layers each with a
16 px Gaussian blur and 10 blend-mode layers, next to Skia's ImageFilters.Blur).

Draws the scene of `StressScenes.filters()` (Sources/CADemoScenes/StressScenes+Filters.swift),
from the same xorshift generator (Random below mirrors StressScenes.Random), into a 1920x1080
premultiplied RGBA8 raster surface, and prints

    peer skia-filters <median ms per frame>

Per frame: clear to 0.9 grey; 20 cards (240x180, corner radius 16, with a 100x80 spot at
(40, 40) inside), each drawn into a layer whose image filter is ImageFilters.Blur(16, 16)
(sigma 16 px, as CIGaussianBlur's radius 16); then 10 rects of 220x220 at alpha 0.8, each with
its blend mode (multiply, screen, overlay, darken, lighten, colour dodge, soft light, difference,
hue, luminosity), sliding 0 -> 120 px in x over 2 s and back (frames 1/60 s apart). Each frame
ends with the pixels in memory, as the engine's frames end with a read-back. skia-python's CPU
raster backend (pip install skia-python); single-threaded.

usage: skia_filters.py [frames]
"""
import sys
import time

import skia

WIDTH, HEIGHT = 1920, 1080
MODES = [skia.BlendMode.kMultiply, skia.BlendMode.kScreen, skia.BlendMode.kOverlay, skia.BlendMode.kDarken,
         skia.BlendMode.kLighten, skia.BlendMode.kColorDodge, skia.BlendMode.kSoftLight,
         skia.BlendMode.kDifference, skia.BlendMode.kHue, skia.BlendMode.kLuminosity]


class Random:
    """StressScenes.Random: xorshift32, unit() = (next % 10000) / 10000."""

    def __init__(self, state):
        self.state = state

    def next(self):
        s = self.state
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.state = s
        return s

    def unit(self):
        return (self.next() % 10000) / 10000.0


def colour(r, g, b, a=1.0):
    return skia.Color4f(r, g, b, a).toColor()


def scene():
    rng = Random(29)
    cards = []
    for _ in range(20):
        x = 40 + rng.unit() * (WIDTH - 320)
        y = 40 + rng.unit() * (HEIGHT - 260)
        fill = colour(rng.unit(), rng.unit(), rng.unit())
        spot = colour(rng.unit(), rng.unit(), rng.unit())
        cards.append((x, y, fill, spot))
    blends = []
    for i, mode in enumerate(MODES):
        x = 60 + i * 180
        y = 300 + rng.unit() * 400
        c = colour(rng.unit(), rng.unit(), rng.unit(), 0.8)
        blends.append((x, y, c, mode))
    return cards, blends


def main():
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    cards, blends = scene()
    surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(WIDTH, HEIGHT, skia.kRGBA_8888_ColorType, skia.kPremul_AlphaType))
    canvas = surface.getCanvas()
    blur = skia.Paint(ImageFilter=skia.ImageFilters.Blur(16, 16))
    fill = skia.Paint(AntiAlias=True)
    background = colour(0.9, 0.9, 0.9)

    def draw(frame):
        t = frame / 60.0
        canvas.clear(background)
        for (x, y, c, s) in cards:
            bounds = skia.Rect.MakeXYWH(x, y, 240, 180)
            canvas.saveLayer(bounds.makeOutset(48, 48), blur)
            fill.setColor(c)
            canvas.drawRRect(skia.RRect.MakeRectXY(bounds, 16, 16), fill)
            fill.setColor(s)
            canvas.drawRect(skia.Rect.MakeXYWH(x + 40, y + 40, 100, 80), fill)
            canvas.restore()
        phase = t % 4.0
        slide = 120.0 * (phase / 2.0 if phase < 2.0 else (4.0 - phase) / 2.0)
        for (x, y, c, mode) in blends:
            p = skia.Paint(AntiAlias=True, Color=c, BlendMode=mode)
            canvas.drawRect(skia.Rect.MakeXYWH(x + slide, y, 220, 220), p)

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
    if len(sys.argv) > 2:
        surface.makeImageSnapshot().save(sys.argv[2], skia.kPNG)
    times.sort()
    print(f"peer skia-filters {times[len(times) // 2]:.3f}", flush=True)


if __name__ == "__main__":
    main()
