#!/usr/bin/env python3
"""rlottie peer of lottie-benchmark (issue 23): renders FILE at SIDE×SIDE, FRAMES frames spread
evenly over the animation (frame round(k × total / FRAMES)), each into a fresh ARGB32 buffer
through rlottie's C API (`lottie_animation_render`: synchronous, though rlottie rasterises the
paths on its own pool of a thread per core), and prints
`peer rlottie <median ms per frame> <mean ms per frame>` after one warm-up frame. Needs the `rlottie-python` wheel
(pip install rlottie-python); prints `missing: …` when it is absent.
Usage: rlottie_render.py FILE [SIDE FRAMES] [--png OUT]"""
import sys, time
try:
    from rlottie_python import LottieAnimation
except ImportError:
    print("missing: rlottie-python is not installed (pip install rlottie-python)"); sys.exit(0)

path = sys.argv[1]
side = int(sys.argv[2]) if len(sys.argv) > 2 else 512
frames = int(sys.argv[3]) if len(sys.argv) > 3 else 60
anim = LottieAnimation.from_file(path)
total = anim.lottie_animation_get_totalframe()
times = []
for k in [0] + list(range(frames)):
    f = min(total - 1, round(k * total / frames))
    t0 = time.perf_counter()
    buf = anim.lottie_animation_render(frame_num=f, width=side, height=side)
    times.append((time.perf_counter() - t0) * 1000)
if "--png" in sys.argv:
    from PIL import Image
    Image.frombuffer("RGBA", (side, side), buf, "raw", "BGRA").save(sys.argv[sys.argv.index("--png") + 1])
times = sorted(times[1:])
print(f"peer rlottie {times[len(times) // 2]:.3f} {sum(times) / len(times):.3f}")
