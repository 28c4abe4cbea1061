"""Cairo peer for the `gradients` scene (layers_scene.py): each frame clears, then fills every
rounded rect with its linear gradient (pattern built once). Prints `peer cairo <median ms>`."""
import argparse
import math

import cairo

import layers_scene
import scene


def rounded_rect(ctx, x, y, w, h, r):
    ctx.new_sub_path()
    ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    ctx.close_path()


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("frames", type=int, nargs="?", default=10)
    p.add_argument("--png")
    a = p.parse_args()
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, layers_scene.WIDTH, layers_scene.HEIGHT)
    ctx = cairo.Context(surface)
    items = []
    for x, y, w, h, r, (x0, y0, x1, y1), colours in layers_scene.gradients():
        g = cairo.LinearGradient(x0, y0, x1, y1)
        for k, c in enumerate(colours):
            g.add_color_stop_rgba(k / (len(colours) - 1), *c, 1.0)
        rounded_rect(ctx, x, y, w, h, r)
        items.append((ctx.copy_path(), g))
        ctx.new_path()

    def frame():
        ctx.set_operator(cairo.OPERATOR_CLEAR)
        ctx.paint()
        ctx.set_operator(cairo.OPERATOR_OVER)
        for path, g in items:
            ctx.new_path()
            ctx.append_path(path)
            ctx.set_source(g)
            ctx.fill()
        surface.flush()

    ms = scene.median_ms(frame, a.frames)
    if a.png:
        surface.write_to_png(a.png)
    print(f"peer cairo {ms:.2f}")


if __name__ == "__main__":
    main()
