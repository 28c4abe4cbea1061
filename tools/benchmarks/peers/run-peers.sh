#!/usr/bin/env bash
# CPU peers of the renderer benchmark: installs what they need (idempotent), then prints one
# `peer <name> <median ms per frame>` line each for the scene of GLBaseline.h.
#
# usage: tools/benchmarks/peers/run-peers.sh [count width height frames] [--max-size N]
#        PEER_SCENE=shapes tools/benchmarks/peers/run-peers.sh [frames]   (issue 6's Bézier stars)
#        PEER_SCENE=gradients|shadows tools/benchmarks/peers/run-peers.sh [frames]
#                                   (issue 22's layer scenes: layers_scene.py)
# env:   PYTHON  interpreter to use (default python3: pyenv's 3.11 here; pycairo and
#                blend2d-python are pip-installed into it)
#        SCENE   a JSON file from `baseline-benchmark --dump-scene` (default: scene.py generates
#                the same rects itself)
#        PEERS   which peers (default "cairo blend2d")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

need_apt=()
if ! "$PY" -c 'import cairo' 2>/dev/null; then
    # pycairo has no Linux wheels: pip builds it against the system libcairo.
    pkg-config --exists cairo 2>/dev/null || need_apt+=(libcairo2-dev)
    command -v pkg-config >/dev/null || need_apt+=(pkg-config)
    command -v cc >/dev/null || need_apt+=(gcc libc6-dev)
    if [ ${#need_apt[@]} -gt 0 ]; then
        $SUDO apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
    fi
    "$PY" -m pip install -q 'pycairo>=1.20' >&2
fi
if ! "$PY" -c 'import blend2d' 2>/dev/null; then
    "$PY" -m pip install -q 'blend2d-python==1.0.0' >&2
fi
if [ "${PEER_SCENE:-rects}" = shadows ] && ! "$PY" -c 'import numpy, scipy' 2>/dev/null; then
    "$PY" -m pip install -q numpy scipy >&2
fi

args=("$@")
[ -n "${SCENE:-}" ] && args+=(--scene "$SCENE")
echo "# $("$PY" --version 2>&1), pycairo $("$PY" -c 'import cairo; print(cairo.version, "on cairo", cairo.cairo_version_string())'), blend2d $("$PY" -c 'import blend2d; print(".".join(map(str, blend2d.BL_VERSION)))'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
# PEER_SCENE picks the scene: rects (default; arguments as above), or shapes, gradients or shadows
# (argument: frames). The shadows peers also need numpy and scipy (a pip install if missing).
for peer in ${PEERS:-cairo blend2d}; do
    "$PY" "$here/${peer}_${PEER_SCENE:-rects}.py" "${args[@]}"
done
