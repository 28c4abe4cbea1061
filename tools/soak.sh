#!/usr/bin/env bash
# Soak: renders scenes frame after frame through one renderer and checks that memory stays
# bounded (issue 17, "Keep it caught"). Not part of CI (it takes minutes); run it before a
# release or after touching the renderer, the atlas or the timing engine.
#
#   tools/soak.sh [FRAMES] [SCENE...]
#
# FRAMES defaults to 20000. SCENE is a built-in scene name (`carender bench --builtin`) or a
# scene file; the default set is the animated demo, the 10k animated rects, the animated
# shapes and a corpus scene with scheduled transactions. Each scene is rendered twice by
# `carender bench` (one CARenderer per run): FRAMES/20 frames (at least 500), then FRAMES. The
# peak resident memory of the long run must stay within 10% of the short run's (the issue's
# rule: RSS at frame 20,000 within 10% of frame 1,000); ms per frame (p50) of both runs is
# printed alongside. Exit status 1 when a scene grows.
set -euo pipefail
cd "$(dirname "$0")/.."

frames=${1:-20000}
shift || true
scenes=("$@")
if [ ${#scenes[@]} -eq 0 ]; then
    scenes=(demo rects shapes-animated Tests/SceneTests/Corpus/keyframes.json)
fi
short=$(( frames / 20 ))
[ "$short" -lt 500 ] && short=500

swift build -c release --product carender >/dev/null
bin=$(swift build -c release --show-bin-path)/carender
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Peak RSS in KiB and p50 ms/frame of one run: `run SCENE FRAMES`.
run() {
    local scene=$1 n=$2 args
    if [ -f "$scene" ]; then args=("$scene"); else args=(--builtin "$scene"); fi
    /usr/bin/time -f "%M" -o "$tmp/rss" "$bin" bench "${args[@]}" --frames "$n" --json > "$tmp/out.json"
    local p50
    p50=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["msPerFrame"]["p50"])' "$tmp/out.json" 2>/dev/null || echo "?")
    echo "$(cat "$tmp/rss") $p50"
}

status=0
printf "%-40s %12s %12s %10s %10s %8s\n" scene "RSS@$short" "RSS@$frames" "ms@$short" "ms@$frames" growth
for scene in "${scenes[@]}"; do
    read -r rss1 ms1 < <(run "$scene" "$short")
    read -r rss2 ms2 < <(run "$scene" "$frames")
    growth=$(python3 -c "print(f'{($rss2 - $rss1) / $rss1 * 100:+.1f}%')")
    verdict=ok
    if [ $(( rss2 * 10 )) -gt $(( rss1 * 11 )) ]; then verdict=GROWS; status=1; fi
    printf "%-40s %9s KiB %9s KiB %10s %10s %8s %s\n" "$scene" "$rss1" "$rss2" "$ms1" "$ms2" "$growth" "$verdict"
done
exit $status
