#!/bin/sh
# Installs the system packages the project builds and tests with (Debian bookworm):
# OpenGL/EGL headers and glvnd (libgl-dev, libopengl-dev, libegl-dev), Mesa's llvmpipe and EGL
# vendor library (libgl1-mesa-dri, libegl-mesa0) for headless rendering without a GPU, libpng
# for PNG in/out, GLFW and Xvfb for the windowed preview, ffmpeg for carender's video output
# (Debian's build carries every encoder and filter carender drives: libx264, libx265, prores_ks,
# libvpx-vp9, libsvtav1, gif, apng, AAC, libopus, and zimg's zscale for BT.2020 PQ),
# libdeflate for CRC-32 and Adler-32 in the fast PNG writer (CAExport); for text (CoreText):
# FreeType (outlines, metrics), HarfBuzz (shaping), fontconfig (lookup, fallback), FriBidi
# (bidi), ICU (UAX #14 line breaks), and Liberation fonts (Helvetica/Arial/Times/Courier
# metric-compatible families that Apple's font names map to; docs/TEXT.md); libjpeg-turbo's
# TurboJPEG (libturbojpeg0-dev), libwebp (libwebp-dev, with libwebpdemux) and giflib
# (libgif-dev) for ImageIO; libxml2 (libxml2-dev) for SVG's XML reader (CXMLSAX);
# python3-pil and python3-numpy for the Lottie corpus comparison (tools/lottie-corpus.sh,
# docs/LOTTIE.md); FFmpeg's libraries (libavformat-dev, libavcodec-dev, libswscale-dev,
# libavutil-dev) for CAVideoLayer's decoder (CVideoDecode; its tests make videos with ffmpeg), and
# libavdevice-dev for its live source (V4L2 cameras; tests use FFmpeg's synthetic lavfi input).
# Cairo (libcairo2-dev) for CairoDifferentialTests only, the reference CGContext is compared with.
# Noto Color Emoji (fonts-noto-color-emoji): the colour emoji font fontconfig's "emoji" family
# gives Core Text's emoji fallback (docs/TEXT.md "Colour emoji"); Noto Sans and the Noto fonts
# of other scripts (fonts-noto-core: Arabic, Hebrew, Devanagari, Thai …) and Noto Sans CJK
# (fonts-noto-cjk): the system font and the per-character fallback (docs/TEXT.md "Font names").
# Does nothing when all are present.
set -eu
PKGS="libgl-dev libopengl-dev libegl-dev libgl1-mesa-dri libegl-mesa0 libpng-dev pkg-config libglfw3-dev xvfb xauth ffmpeg libdeflate-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev libicu-dev fonts-liberation2 libturbojpeg0-dev libwebp-dev libgif-dev libxml2-dev python3-pil python3-numpy libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libavdevice-dev libcairo2-dev fonts-noto-color-emoji fonts-noto-core fonts-noto-cjk"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
echo "installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
