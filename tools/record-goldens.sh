#!/bin/sh
# Re-records the renderer's golden images on purpose (never done silently by the tests).
# Run on Mesa llvmpipe (the default on machines without a GPU); review the changed PNGs in
# Tests/RendererTests/Goldens with `git diff --stat` and look at them before committing.
# Usage: tools/record-goldens.sh [test filter]   (default: RendererTests)
set -eu
cd "$(dirname "$0")/.."
CA_RECORD_GOLDENS=1 __EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_mesa.json \
  swift test --filter "${1:-RendererTests}"
