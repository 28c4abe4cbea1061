"""Cairo peer: the benchmark scene (see scene.py) into an ARGB32 image surface, one thread.

Paths are built once (like a retained scene); each frame clears the surface, then per rect fills
the rounded rect with the fill colour and fills the border ring (outer + inner rounded rect,
even-odd) with the border colour. Prints `peer cairo <median ms per frame>`.
"""
import math

import cairo

import scene


def round_rect(ctx, x, y, w, h, r):
    ctx.new_sub_path()
    ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    ctx.close_path()


def main():
    a = scene.arguments(__doc__)
    w, h, radius, border, rects = scene.load(a.scene, a.count, a.seed, a.width, a.height, a.max_size)
    size = (1, 1) if a.calls_only else (w, h)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, *size)
    ctx = cairo.Context(surface)
    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
    items = []
    for x, y, rw, rh, fr, fg, fb, fa, br, bg, bb, ba in rects:
        ctx.new_path()
        round_rect(ctx, x, y, rw, rh, radius)
        outer = ctx.copy_path()
        round_rect(ctx, x + border, y + border, rw - 2 * border, rh - 2 * border, max(radius - border, 0))
        ring = ctx.copy_path()
        items.append((outer, (fr, fg, fb, fa), ring, (br, bg, bb, ba)))
    ctx.new_path()

    def frame():
        ctx.set_operator(cairo.OPERATOR_CLEAR)
        ctx.paint()
        ctx.set_operator(cairo.OPERATOR_OVER)
        for outer, fill, ring, stroke in items:
            ctx.append_path(outer)
            ctx.set_source_rgba(*fill)
            ctx.fill()
            ctx.append_path(ring)
            ctx.set_source_rgba(*stroke)
            ctx.fill()
        surface.flush()

    scene.report("cairo-calls-only" if a.calls_only else "cairo", frame, a.frames, a.png, surface.write_to_png)


if __name__ == "__main__":
    main()
