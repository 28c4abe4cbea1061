"""Cairo peer for the `gradients` scene (layers_scene.py): each frame clears, then fills every
rounded rect with its linear gradient (pattern built once). Prints `peer cairo <median ms>`."""
import cairo

import layers_scene
import scene
from cairo_rects import round_rect


def main():
    a = scene.frame_arguments(__doc__)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, layers_scene.WIDTH, layers_scene.HEIGHT)
    ctx = cairo.Context(surface)
    items = []
    for x, y, w, h, r, (x0, y0, x1, y1), colours in layers_scene.gradients():
        g = cairo.LinearGradient(x0, y0, x1, y1)
        for k, c in enumerate(colours):
            g.add_color_stop_rgba(k / (len(colours) - 1), *c, 1.0)
        round_rect(ctx, x, y, w, h, r)
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

    scene.report("cairo", frame, a.frames, a.png, surface.write_to_png)


if __name__ == "__main__":
    main()
