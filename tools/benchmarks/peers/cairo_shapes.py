"""Cairo peer for the `shapes` scene (shapes_scene.py): each frame clears, then fills and
strokes every star (antialias default, operator OVER). Prints `peer cairo <median ms per frame>`."""
import cairo

import scene
import shapes_scene


def main():
    a = scene.frame_arguments(__doc__)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, shapes_scene.WIDTH, shapes_scene.HEIGHT)
    ctx = cairo.Context(surface)
    ctx.set_line_width(shapes_scene.LINE_WIDTH)
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    # Paths recorded once (a retained scene), replayed each frame.
    items = []
    for start, curves, fill, stroke in shapes_scene.stars():
        ctx.new_path()
        ctx.move_to(*start)
        for c1, c2, q in curves:
            ctx.curve_to(c1[0], c1[1], c2[0], c2[1], q[0], q[1])
        ctx.close_path()
        items.append((ctx.copy_path(), fill, stroke))
    ctx.new_path()

    def frame():
        ctx.set_operator(cairo.OPERATOR_CLEAR)
        ctx.paint()
        ctx.set_operator(cairo.OPERATOR_OVER)
        for path, f, s in items:
            ctx.new_path()
            ctx.append_path(path)
            ctx.set_source_rgba(*f, shapes_scene.FILL_ALPHA)
            ctx.fill_preserve()
            ctx.set_source_rgba(*s, 1.0)
            ctx.stroke()
        surface.flush()

    scene.report("cairo", frame, a.frames, a.png, surface.write_to_png)


if __name__ == "__main__":
    main()
