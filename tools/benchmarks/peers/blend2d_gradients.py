"""Blend2D peer for the `gradients` scene (layers_scene.py): each frame clears, then fills every
rounded rect with its linear gradient (built once); synchronous context, one thread. Prints
`peer blend2d <median ms per frame>`."""
import blend2d as bl

import layers_scene
import scene
from blend2d_rects import colour_order_swapped


def main():
    a = scene.frame_arguments(__doc__)
    image = bl.BLImage(layers_scene.WIDTH, layers_scene.HEIGHT, bl.BLFormat.PRGB32)
    ctx = bl.BLContext(image)
    swapped = colour_order_swapped()
    items = []
    for x, y, w, h, r, values, colours in layers_scene.gradients():
        path = bl.BLPath()
        path.add_round_rect(bl.BLRect(x, y, w, h), r)
        g = bl.BLGradient()   # linear: values x0, y0, x1, y1
        for k, v in enumerate(values):
            g.set_value(k, v)
        for k, (cr, cg, cb) in enumerate(colours):
            g.add_stop(k / (len(colours) - 1), (cb, cg, cr, 1.0) if swapped else (cr, cg, cb, 1.0))
        items.append((path, g))

    def frame():
        ctx.clear_all()
        for path, g in items:
            ctx.set_fill_style(g)
            ctx.fill_path(path)
        ctx.flush()

    scene.report("blend2d", frame, a.frames, a.png, image.writeToFile)


if __name__ == "__main__":
    main()
