"""The `gradients` and `shadows` scenes of the renderer benchmark (issue 22), shared by the CPU
peers: the same layers as StressScenes.gradients(count: 200) and StressScenes.shadows(count: 100)
in Sources/CADemoScenes/StressScenes.swift, from the same xorshift32 generator (the one
shapes_scene.py uses) with the same seeds, draws and order.

The engine animates them (the gradients' endPoint, the shadows' shadowRadius); the peers draw
one retained snapshot at t = 0.1 s, the middle of the benchmark's timed frames:

- gradients: 200 rounded rects (radius 10) at 1920x1080, each filled with a three-stop
  (evenly spaced, opaque) axial gradient from the top centre to endPoint (0.5 + t/3,
  1 - 0.8 t/1.5) in the layer's unit square, over a transparent canvas.
- shadows: a canvas cleared to grey 0.95, then per layer (100, radius 12) its shadow (black,
  opacity 0.5, offset (0, 6) pixels down, Gaussian sigma = 0.8 x shadowRadius, the engine's
  ShadowSpec rule; shadowRadius 4 -> 14 over 1 s, so 5 at t = 0.1) and its opaque fill.
  A 2D library has no blur: each shadow is a sprite blurred once (scipy) before the timed
  frames and blitted per frame, what an app would do for a static shadow.
"""
import math

from shapes_scene import Rng

WIDTH, HEIGHT = 1920, 1080
T = 0.1


def gradients(count=200, seed=11):
    """[(x, y, w, h, radius, (x0, y0, x1, y1), [(r, g, b)] * 3)] in pixels, y down."""
    rng = Rng(seed)
    out = []
    ex, ey = 0.5 + 0.5 * T / 1.5, 1 - 0.8 * T / 1.5
    for _ in range(count):
        w = 80 + rng.unit() * 160
        h = 60 + rng.unit() * 120
        x = rng.unit() * (WIDTH - w)
        y = rng.unit() * (HEIGHT - h)
        colours = []
        for _ in range(3):
            r = rng.unit()
            g = rng.unit()
            b = rng.unit()
            colours.append((r, g, b))
        out.append((x, y, w, h, 10.0, (x + 0.5 * w, y, x + ex * w, y + ey * h), colours))
    return out


def shadows(count=100, seed=13):
    """[(x, y, w, h, radius, (r, g, b))] in pixels, y down; every shadow as SHADOW."""
    rng = Rng(seed)
    out = []
    for _ in range(count):
        w = 80 + rng.unit() * 120
        h = 60 + rng.unit() * 90
        x = 20 + rng.unit() * (WIDTH - w - 40)
        y = 20 + rng.unit() * (HEIGHT - h - 40)
        r = rng.unit()
        g = rng.unit()
        b = rng.unit()
        out.append((x, y, w, h, 12.0, (r, g, b)))
    return out


SHADOW_OPACITY, SHADOW_OFFSET = 0.5, (0.0, 6.0)
SHADOW_SIGMA = 0.8 * (4 + 10 * T)


def shadow_sprite(w, h, radius, draw_mask):
    """A shadow's premultiplied BGRA sprite (numpy uint8, rows x cols x 4) and the pixel offset
    of its origin from the layer's: the rounded rect's alpha mask (drawn at (pad, pad) by
    `draw_mask(width, height, pad) -> float alpha array`), blurred, times the opacity, black."""
    import numpy as np
    from scipy.ndimage import gaussian_filter
    pad = int(math.ceil(3 * SHADOW_SIGMA)) + 2
    sw, sh = int(math.ceil(w)) + 2 * pad, int(math.ceil(h)) + 2 * pad
    alpha = gaussian_filter(draw_mask(sw, sh, pad), SHADOW_SIGMA, mode="constant") * SHADOW_OPACITY
    sprite = np.zeros((sh, sw, 4), dtype=np.uint8)
    sprite[..., 3] = np.clip(np.rint(alpha * 255), 0, 255).astype(np.uint8)
    return sprite, (SHADOW_OFFSET[0] - pad, SHADOW_OFFSET[1] - pad)
