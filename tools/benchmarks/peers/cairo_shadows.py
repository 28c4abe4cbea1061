"""Cairo peer for the `shadows` scene (layers_scene.py): each frame clears to grey, then per
layer paints its shadow sprite (blurred once, before the timed frames) and fills the rounded
rect. Prints `peer cairo <median ms per frame>`."""
import cairo
import numpy as np

import layers_scene
import scene
from cairo_rects import round_rect


def mask(w, h, radius):
    """`draw_mask` for layers_scene.shadow_sprite: the rounded rect's alpha, drawn by Cairo."""
    def draw(sw, sh, pad):
        s = cairo.ImageSurface(cairo.FORMAT_A8, sw, sh)
        c = cairo.Context(s)
        round_rect(c, pad, pad, w, h, radius)
        c.fill()
        s.flush()
        a = np.ndarray((sh, s.get_stride()), dtype=np.uint8, buffer=s.get_data())[:, :sw]
        return a.astype(np.float64) / 255
    return draw


def main():
    a = scene.frame_arguments(__doc__)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, layers_scene.WIDTH, layers_scene.HEIGHT)
    ctx = cairo.Context(surface)
    items = []
    for x, y, w, h, r, colour in layers_scene.shadows():
        sprite, (dx, dy) = layers_scene.shadow_sprite(w, h, r, mask(w, h, r))
        data = np.ascontiguousarray(sprite)
        image = cairo.ImageSurface.create_for_data(memoryview(data), cairo.FORMAT_ARGB32, data.shape[1], data.shape[0])
        round_rect(ctx, x, y, w, h, r)
        items.append((data, image, x + dx, y + dy, ctx.copy_path(), colour))
        ctx.new_path()

    def frame():
        ctx.set_source_rgb(0.95, 0.95, 0.95)
        ctx.paint()
        for _, image, sx, sy, path, colour in items:
            ctx.set_source_surface(image, sx, sy)
            ctx.paint()
            ctx.new_path()
            ctx.append_path(path)
            ctx.set_source_rgb(*colour)
            ctx.fill()
        surface.flush()

    scene.report("cairo", frame, a.frames, a.png, surface.write_to_png)


if __name__ == "__main__":
    main()
