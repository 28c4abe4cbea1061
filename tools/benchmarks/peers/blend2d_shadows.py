"""Blend2D peer for the `shadows` scene (layers_scene.py): each frame clears to grey, then per
layer blits its shadow sprite (blurred once, before the timed frames) and fills the rounded rect;
synchronous context, one thread. blend2d-python copies image data out but not in, so each
sprite reaches a BLImage through a PNG file (once, untimed). Prints `peer blend2d <median ms>`."""
import os
import struct
import tempfile
import zlib

import blend2d as bl
import numpy as np

import layers_scene
import scene
from blend2d_rects import colour_order_swapped


def mask(w, h, radius):
    """`draw_mask` for layers_scene.shadow_sprite: the rounded rect's alpha, drawn by Blend2D."""
    def draw(sw, sh, pad):
        img = bl.BLImage(sw, sh, bl.BLFormat.PRGB32)
        c = bl.BLContext(img)
        c.clear_all()
        path = bl.BLPath()
        path.add_round_rect(bl.BLRect(pad, pad, w, h), radius)
        c.set_fill_style((1.0, 1.0, 1.0, 1.0))
        c.fill_path(path)
        c.flush()
        c = None
        return img.getDataAsNumPy().reshape(sh, sw, 4)[..., 3].astype(np.float64) / 255
    return draw


def write_png(path, rgba):
    """An RGBA8 PNG (straight alpha) of a rows x cols x 4 uint8 array."""
    h, w = rgba.shape[:2]
    raw = b"".join(b"\0" + rgba[y].tobytes() for y in range(h))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def main():
    a = scene.frame_arguments(__doc__)
    image = bl.BLImage(layers_scene.WIDTH, layers_scene.HEIGHT, bl.BLFormat.PRGB32)
    ctx = bl.BLContext(image)
    swapped = colour_order_swapped()
    items = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (x, y, w, h, r, (cr, cg, cb)) in enumerate(layers_scene.shadows()):
            sprite, (dx, dy) = layers_scene.shadow_sprite(w, h, r, mask(w, h, r))
            name = os.path.join(tmp, f"{k}.png")
            write_png(name, sprite)   # black: straight RGB 0, alpha the shadow's
            s = bl.BLImage()
            s.readFromFile(name)
            path = bl.BLPath()
            path.add_round_rect(bl.BLRect(x, y, w, h), r)
            items.append((s, bl.BLPoint(x + dx, y + dy), path, (cb, cg, cr, 1.0) if swapped else (cr, cg, cb, 1.0)))

    def frame():
        ctx.set_fill_style((0.95, 0.95, 0.95, 1.0))
        ctx.fill_all()
        for s, at, path, colour in items:
            ctx.blit_image(at, s)
            ctx.set_fill_style(colour)
            ctx.fill_path(path)
        ctx.flush()

    scene.report("blend2d", frame, a.frames, a.png, image.writeToFile)


if __name__ == "__main__":
    main()
