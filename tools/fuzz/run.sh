#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS (default 60) on a working corpus seeded
# from the tests' own files. Not part of CI. Findings (crash-*, timeout-*, oom-* inputs) land in
# tools/fuzz/findings/TARGET/; a run prints libFuzzer's execution count at the end.
#
#   tools/fuzz/run.sh [SECONDS] [TARGET...]
#   TARGET: svg scene png lottie font path image (default: all seven)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(svg scene png lottie font path image)
# The corpora beside the checkout (read in place, never copied into the project).
shared=../../../shared/corpora

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
    corpus=corpus/$t
    findings=findings/$t
    mkdir -p "$corpus" "$findings"
    extra=()
    case $t in
        svg) seeds=../../Tests/SVGTests/Fuzz ;;
        scene) seeds=../../Tests/SceneTests/Corpus ;;
        png) seeds=../../Tests/RendererTests/Goldens ;;
        lottie)
            # Lottie files of the shared corpus under 8 KB, and inputs up to 8 KB: decoding and
            # building a tree of a 60 KB file runs a few times a second on this VM, too slow to
            # explore (the large files are covered by tools/lottie-corpus.sh).
            seeds=seeds/lottie
            mkdir -p "$seeds"
            [ -d "$shared/lottie-ios" ] && find "$shared/lottie-ios" -name '*.json' -size -8k | while read -r f; do cp -n "$f" "$seeds/$(basename "$f")"; done
            extra=(-max_len=8192)
            ;;
        font)
            # The shared test fonts, cut down to the glyphs of the target's sample text with
            # every layout feature kept (fonttools' pyftsubset: `pip install fonttools`), so
            # each is a few KB and the shaping tables are still there; inputs up to 32 KB.
            # Without pyftsubset, the whole fonts under 200 KB.
            seeds=seeds/font
            mkdir -p "$seeds"
            if [ -d "$shared/fonts" ]; then
                for f in "$shared"/fonts/*.ttf "$shared"/fonts/*.otf; do
                    [ -f "$f" ] || continue
                    out="$seeds/$(basename "$f")"
                    [ -f "$out" ] && continue
                    if command -v pyftsubset >/dev/null; then
                        pyftsubset "$f" --text="Hello, fi ffl Ta AV 0123 — ÅÉ ß é مرحبا नमस्ते" --layout-features='*' --output-file="$out" 2>/dev/null || true
                    elif [ "$(stat -c %s "$f")" -lt 204800 ]; then
                        cp "$f" "$out"
                    fi
                done
            fi
            extra=(-max_len=32768)
            ;;
        path)
            seeds=seeds/path
            mkdir -p "$seeds"
            printf 'M10 10 L50 10 50 50 Z' >"$seeds/lines"
            printf 'M10,30 A20,20 0,0,1 50,30 A20,20 0,0,1 90,30 Q90,60 50,90 Q10,60 10,30 z' >"$seeds/arcs"
            printf 'm5 5 c10 0 10 10 20 10 s10-10 20-10 t10 10 h-5 v5 H2 V9 z M1e3 1e-3 l.5.5' >"$seeds/relative"
            ;;
        image)
            seeds=seeds/image
            mkdir -p "$seeds"
            cp -n ../../Tests/ImageIOTests/Fixtures/* "$seeds/" 2>/dev/null || true
            if command -v ffmpeg >/dev/null; then
                [ -f "$seeds/seed.jpg" ] || ffmpeg -loglevel error -f lavfi -i testsrc=size=24x16 -frames:v 1 "$seeds/seed.jpg"
                [ -f "$seeds/seed.gif" ] || ffmpeg -loglevel error -f lavfi -i testsrc=size=16x16:rate=4 -frames:v 3 "$seeds/seed.gif"
            fi
            ;;
        *) echo "unknown target $t (svg, scene, png, lottie, font, path, image)"; exit 2 ;;
    esac
    # Memory and time per input are bounded by the importers' limits: an input that needs more
    # than 2 GB or 10 s is a finding.
    "$bin/fuzz-$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${extra[@]}" \
        -artifact_prefix="$findings/" "$corpus" "$seeds" 2>&1 | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Done" || true
done
