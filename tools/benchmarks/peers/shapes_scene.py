"""The `shapes` scene of the renderer benchmark (issue 6), shared by the CPU peers.

1,000 five-pointed stars of cubic Béziers at 1920x1080, each filled (alpha 0.8) and stroked
(opaque, width 3, round joins), in index order over a transparent canvas. The generator is
xorshift32 (seed 12345); Sources/RenderBenchmark/ShapeScene.swift computes the same stars.
Each star: centre (cx, cy), outer radius R in [20, 60), inner radius 0.45 R, rotation rot;
vertices p_k (k = 0..9) alternate outer/inner at rot + k*pi/5; the edge p_k -> p_k+1 is a cubic
whose control points sit at 1/3 and 2/3 of the chord, pushed 0.15 R away from the centre.
"""
import math

COUNT, WIDTH, HEIGHT, SEED = 1000, 1920, 1080, 12345
LINE_WIDTH, FILL_ALPHA = 3.0, 0.8
_M = 0xFFFFFFFF


class Rng:
    def __init__(self, seed):
        self.s = seed

    def next(self):
        s = self.s
        s ^= (s << 13) & _M
        s ^= s >> 17
        s ^= (s << 5) & _M
        self.s = s
        return s

    def unit(self):
        return (self.next() % 10000) / 10000.0


def stars(count=COUNT, w=WIDTH, h=HEIGHT):
    """[(move_point, [(c1, c2, p), ...10], fill_rgb, stroke_rgb)] in layer (pixel) coordinates."""
    rng = Rng(SEED)
    out = []
    for _ in range(count):
        cx, cy = rng.unit() * w, rng.unit() * h
        r = 20 + rng.unit() * 40
        rot = rng.unit() * 2 * math.pi
        fill = (rng.unit(), rng.unit(), rng.unit())
        stroke = (rng.unit(), rng.unit(), rng.unit())
        pts = []
        for k in range(10):
            a = rot + k * math.pi / 5
            rr = r if k % 2 == 0 else 0.45 * r
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        curves = []
        for k in range(10):
            p, q = pts[k], pts[(k + 1) % 10]
            mx, my = (p[0] + q[0]) / 2 - cx, (p[1] + q[1]) / 2 - cy
            ml = math.hypot(mx, my) or 1.0
            nx, ny = mx / ml * 0.15 * r, my / ml * 0.15 * r
            c1 = (p[0] + (q[0] - p[0]) / 3 + nx, p[1] + (q[1] - p[1]) / 3 + ny)
            c2 = (p[0] + 2 * (q[0] - p[0]) / 3 + nx, p[1] + 2 * (q[1] - p[1]) / 3 + ny)
            curves.append((c1, c2, q))
        out.append((pts[0], curves, fill, stroke))
    return out
