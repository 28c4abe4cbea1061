#!/usr/bin/env python3
"""ThorVG peer of lottie-benchmark (issue 23): renders FILE at SIDE×SIDE, FRAMES frames spread
evenly over the animation (frame k × total / FRAMES), each a `set_frame`, `update`, `draw`,
`sync` of a software canvas (ThorVG's CPU rasteriser, engine with 0 worker threads: the calling
thread only), and prints `peer thorvg <median ms per frame> <mean ms per frame>` after one warm-up frame. Needs the
`thorvg-python` wheel (pip install thorvg-python); prints `missing: …` when it is absent.
Usage: thorvg_render.py FILE [SIDE FRAMES] [--png OUT]"""
import sys, time
try:
    import thorvg_python as tvg
except ImportError:
    print("missing: thorvg-python is not installed (pip install thorvg-python)"); sys.exit(0)

path = sys.argv[1]
side = int(sys.argv[2]) if len(sys.argv) > 2 else 512
frames = int(sys.argv[3]) if len(sys.argv) > 3 else 60
engine = tvg.Engine(threads=0)
canvas = tvg.SwCanvas(engine)
canvas.set_target(side, side)
anim = tvg.Animation(engine)
pic = anim.get_picture()
pic.load(path)
# Fitted into the square, aspect kept and centred (what lottie-benchmark's content mode does).
_, w, h = pic.get_size()
s = min(side / w, side / h)
pic.set_size(w * s, h * s)
pic.translate((side - w * s) / 2, (side - h * s) / 2)
canvas.add(pic)
_, total = anim.get_total_frame()
times = []
for k in [0] + list(range(frames)):
    f = min(total - 1, k * total / frames)
    t0 = time.perf_counter()
    anim.set_frame(f)
    canvas.update()
    canvas.draw(True)
    canvas.sync()
    times.append((time.perf_counter() - t0) * 1000)
if "--png" in sys.argv:
    canvas.get_pillow().save(sys.argv[sys.argv.index("--png") + 1])
times = sorted(times[1:])
print(f"peer thorvg {times[len(times) // 2]:.3f} {sum(times) / len(times):.3f}")
