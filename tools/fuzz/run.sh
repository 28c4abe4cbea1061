#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS (default 60) on a working corpus seeded
# from the tests' own files. Not part of CI. Findings (crash-*, timeout-*, oom-* inputs) land in
# tools/fuzz/findings/TARGET/; a run prints libFuzzer's execution count at the end.
#
#   tools/fuzz/run.sh [SECONDS] [TARGET...]      TARGET: svg scene png (default: all three)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(svg scene png)

# -sanitize=fuzzer instruments every Swift module (coverage) and links libFuzzer; the C shims
# get coverage from -fsanitize=fuzzer-no-link. SwiftPM gives an executable a `main` of its own
# and libFuzzer brings another: --allow-multiple-definition lets the link keep one, and either
# runs the same callback (each target defines LLVMFuzzerTestOneInput and calls
# LLVMFuzzerRunDriver with it from its own main).
flags=(-Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link -Xlinker --allow-multiple-definition)
# Product by product: a plain `swift build` would also build the main package's executables
# with these flags.
for t in "${targets[@]}"; do swift build -c release "${flags[@]}" --product "fuzz-$t" >/dev/null; done
bin=$(swift build -c release "${flags[@]}" --show-bin-path)

for t in "${targets[@]}"; do
    case $t in
        svg) seeds=../../Tests/SVGTests/Fuzz ;;
        scene) seeds=../../Tests/SceneTests/Corpus ;;
        png) seeds=../../Tests/RendererTests/Goldens ;;
        *) echo "unknown target $t (svg, scene, png)"; exit 2 ;;
    esac
    corpus=corpus/$t
    findings=findings/$t
    mkdir -p "$corpus" "$findings"
    # Memory and time per input are bounded by the importers' limits: an input that needs more
    # than 2 GB or 10 s is a finding.
    "$bin/fuzz-$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$findings/" "$corpus" "$seeds" 2>&1 | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Done" || true
done
