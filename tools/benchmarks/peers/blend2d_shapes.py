"""Blend2D peer for the `shapes` scene (shapes_scene.py): paths built once, each frame clears,
then fills and strokes every star. Prints `peer blend2d <median ms per frame>`."""
import blend2d as bl

import scene
import shapes_scene
from blend2d_rects import colour_order_swapped


def main():
    a = scene.frame_arguments(__doc__)
    image = bl.BLImage(shapes_scene.WIDTH, shapes_scene.HEIGHT, bl.BLFormat.PRGB32)
    ctx = bl.BLContext(image)
    swapped = colour_order_swapped()
    ctx.stroke_width = shapes_scene.LINE_WIDTH
    ctx.stroke_join = bl.BLStrokeJoin.JOIN_ROUND
    items = []
    for start, curves, fill, stroke in shapes_scene.stars():
        path = bl.BLPath()
        path.move_to(*start)
        for c1, c2, q in curves:
            path.cubic_to(c1[0], c1[1], c2[0], c2[1], q[0], q[1])
        path.close()
        f = (*fill, shapes_scene.FILL_ALPHA)
        s = (*stroke, 1.0)
        if swapped:
            f = (f[2], f[1], f[0], f[3])
            s = (s[2], s[1], s[0], s[3])
        items.append((path, f, s))

    def frame():
        ctx.clear_all()
        for path, f, s in items:
            ctx.set_fill_style(f)
            ctx.fill_path(path)
            ctx.set_stroke_style(s)
            ctx.stroke_path(path)
        ctx.flush()

    scene.report("blend2d", frame, a.frames, a.png, image.writeToFile)


if __name__ == "__main__":
    main()
