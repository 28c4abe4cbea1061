"""The renderer benchmark's scene, shared by the CPU peers.

The one definition is C: glb_scene_rect_in() in Sources/GLBaseline/GLBaseline.c (documented in
include/GLBaseline.h). `baseline-benchmark --dump-scene FILE` writes it as JSON; this module reads
that file, or, without one, re-computes the same integer generator here (check the two agree with
`python3 scene.py --check FILE`).

Each rect is 12 numbers: x, y, width, height (integral pixels, y down), fill r, g, b, a, border
r, g, b, a (straight alpha, components 0...1). Drawing rule: fill the rounded rect (radius 8) with
the fill colour, then draw over it the border ring between that rounded rect and the one inset by
2 (radius 6). Source-over, in index order, onto a canvas cleared to transparent.
"""
import argparse
import json
import time

COUNT, SEED, WIDTH, HEIGHT = 10000, 1, 1920, 1080
MIN_SIZE, MAX_SIZE = 20, 200
RADIUS, BORDER, ALPHA = 8.0, 2.0, 0.8
_M = 0xFFFFFFFF


def _mix(x):  # lowbias32, as glb_mix in GLBaseline.c
    x ^= x >> 16
    x = (x * 0x7FEB352D) & _M
    x ^= x >> 15
    x = (x * 0x846CA68B) & _M
    x ^= x >> 16
    return x


def word(i, k, seed):
    return _mix(_mix((seed ^ 0x9E3779B9) & _M) ^ ((i * 8 + k) & _M))


def rect(i, seed=SEED, w=WIDTH, h=HEIGHT, max_size=MAX_SIZE):
    span = max(max_size, MIN_SIZE) - MIN_SIZE + 1
    rw = min(MIN_SIZE + word(i, 0, seed) % span, max(w, 1))
    rh = min(MIN_SIZE + word(i, 1, seed) % span, max(h, 1))
    x = word(i, 2, seed) % (max(w, 1) - rw + 1)
    y = word(i, 3, seed) % (max(h, 1) - rh + 1)
    f, b = word(i, 4, seed), word(i, 5, seed)
    return [float(x), float(y), float(rw), float(rh),
            (f & 255) / 255, ((f >> 8) & 255) / 255, ((f >> 16) & 255) / 255, ALPHA,
            (b & 255) / 255, ((b >> 8) & 255) / 255, ((b >> 16) & 255) / 255, ALPHA]


def load(path=None, count=COUNT, seed=SEED, w=WIDTH, h=HEIGHT, max_size=MAX_SIZE):
    """(width, height, radius, border, rects) from a --dump-scene file, or generated here."""
    if path:
        with open(path) as f:
            s = json.load(f)
        return s["width"], s["height"], s["radius"], s["border"], s["rects"]
    return w, h, RADIUS, BORDER, [rect(i, seed, w, h, max_size) for i in range(count)]


def arguments(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("count", type=int, nargs="?", default=COUNT)
    p.add_argument("width", type=int, nargs="?", default=WIDTH)
    p.add_argument("height", type=int, nargs="?", default=HEIGHT)
    p.add_argument("frames", type=int, nargs="?", default=10)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--max-size", type=int, default=MAX_SIZE, help="scene variant for experiments (canonical: 200)")
    p.add_argument("--scene", help="JSON from baseline-benchmark --dump-scene (overrides count/size/seed)")
    p.add_argument("--png", help="write the last frame as PNG")
    p.add_argument("--calls-only", action="store_true",
                   help="draw into a 1x1 image: the per-call cost (Python + library) without rasterisation")
    return p.parse_args()


def frame_arguments(description):
    """The arguments of the peers whose scene is fixed (shapes, gradients, shadows): frames, --png."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("frames", type=int, nargs="?", default=10)
    p.add_argument("--png", help="write the last frame as PNG")
    return p.parse_args()


def report(name, draw_frame, frames, png=None, write_png=None):
    """Times `draw_frame` (median of `frames` after a warm-up), writes the last frame to `png`
    with `write_png(path)` when asked, and prints the `peer <name> <ms>` line run-peers.sh reads."""
    ms = median_ms(draw_frame, frames)
    if png:
        write_png(png)
    print(f"peer {name} {ms:.2f}")


def median_ms(draw_frame, frames):
    draw_frame()  # warm-up
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        draw_frame()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    n = len(times)
    return times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2])


if __name__ == "__main__":
    p = argparse.ArgumentParser(description="check this generator against a --dump-scene file")
    p.add_argument("--check", required=True)
    a = p.parse_args()
    with open(a.check) as f:
        s = json.load(f)
    mine = [rect(i, s["seed"], s["width"], s["height"], s.get("max_size", MAX_SIZE)) for i in range(s["count"])]
    bad = [i for i, (r, q) in enumerate(zip(mine, s["rects"])) if any(abs(u - v) > 1e-6 for u, v in zip(r, q))]
    print(f"{s['count']} rects, {len(bad)} differ" + (f" (first: {bad[0]})" if bad else ""))
    raise SystemExit(1 if bad else 0)
