#!/bin/sh
# The Lottie corpus run (docs/LOTTIE.md): builds carender, then renders and compares every
# coreAnimation snapshot of ../shared/corpora/lottie-ios. Needs python3-pil and python3-numpy
# (tools/install-deps.sh). Arguments: [CARENDER] [OUTDIR] [FILTER]; JOBS=N renders in parallel.
set -e
cd "$(dirname "$0")/.."
if [ -z "$1" ]; then swift build --product carender >/dev/null; fi
exec /usr/bin/python3 tools/lottie-corpus.py "$@"
