// FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil) for the video layer's
// decoder, and libavdevice for its live source (V4L2 cameras, lavfi; issue 19). Swift does not call them directly: FFmpeg's error codes and sentinels are
// macros Swift cannot import (AVERROR(EAGAIN), AV_NOPTS_VALUE), so CVideoDecode wraps them
// behind a header that names no FFmpeg type; this module carries the headers and the links.
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
