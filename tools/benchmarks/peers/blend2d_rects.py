"""Blend2D peer: the benchmark scene (see scene.py) into a PRGB32 image (Blend2D's ARGB32,
premultiplied), through the blend2d-python bindings; synchronous context, one thread.

Paths are built once (like a retained scene); each frame clears the image, then per rect fills
the rounded rect with the fill colour and fills the border ring (outer + inner rounded rect,
even-odd) with the border colour. Prints `peer blend2d <median ms per frame>`.
"""
import blend2d as bl

import scene


def colour_order_swapped():
    """blend2d-python 1.0.0 reads a colour tuple as (b, g, r, a): probe it on a 1x1 image."""
    probe = bl.BLImage(1, 1, bl.BLFormat.PRGB32)
    ctx = bl.BLContext(probe)
    ctx.comp_op = bl.BLCompOp.SRC_COPY
    ctx.set_fill_style((1.0, 0.0, 0.0, 1.0))
    ctx.fill_all()
    ctx.flush()
    ctx = None
    return int(probe.getDataAsNumPy().reshape(-1)[0]) == 255  # little-endian B, G, R, A: byte 0 is blue


def main():
    a = scene.arguments(__doc__)
    w, h, radius, border, rects = scene.load(a.scene, a.count, a.seed, a.width, a.height, a.max_size)
    size = (1, 1) if a.calls_only else (w, h)
    image = bl.BLImage(size[0], size[1], bl.BLFormat.PRGB32)
    ctx = bl.BLContext(image)
    ctx.fill_rule = bl.BLFillRule.EVEN_ODD
    swapped = colour_order_swapped()
    items = []
    for x, y, rw, rh, fr, fg, fb, fa, br, bg, bb, ba in rects:
        outer = bl.BLPath()
        outer.add_round_rect(bl.BLRect(x, y, rw, rh), radius)
        ring = bl.BLPath()
        ring.add_round_rect(bl.BLRect(x, y, rw, rh), radius)
        ring.add_round_rect(bl.BLRect(x + border, y + border, rw - 2 * border, rh - 2 * border),
                            max(radius - border, 0))
        fill, stroke = ((fb, fg, fr, fa), (bb, bg, br, ba)) if swapped else ((fr, fg, fb, fa), (br, bg, bb, ba))
        items.append((outer, fill, ring, stroke))

    def frame():
        ctx.clear_all()
        for outer, fill, ring, stroke in items:
            ctx.set_fill_style(fill)
            ctx.fill_path(outer)
            ctx.set_fill_style(stroke)
            ctx.fill_path(ring)
        ctx.flush()

    scene.report("blend2d-calls-only" if a.calls_only else "blend2d", frame, a.frames, a.png, image.writeToFile)


if __name__ == "__main__":
    main()
