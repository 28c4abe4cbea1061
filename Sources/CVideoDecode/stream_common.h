// What the file decoder (video_decode.c) and the live capture (live_capture.c) share: error
// text, opening the best video stream's decoder, the frame rate, and the conversion to RGBA.
// Internal to this target (not under include/). Written for this project.
#ifndef CAVD_STREAM_COMMON_H
#define CAVD_STREAM_COMMON_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <stddef.h>
#include <stdint.h>

/// Writes "what" (and FFmpeg's text for `code` when non-zero) into err[n].
void cavd_set_err(char *err, size_t n, const char *what, int code);

/// The opened stream of an input: the decoder of its best video stream.
typedef struct {
    AVCodecContext *codec;
    AVStream *st;
    int stream;
} cavd_stream;

/// Reads `fmt`'s stream information, finds its best video stream, checks its frame size against
/// `max_pixels`, opens a single-threaded decoder (frames come out in order, one at a time) and
/// allocates `frame` and `pkt`. `no_stream` is the error text when there is no video stream.
/// 0 on success; -1 with `err` set otherwise (the caller frees what was allocated).
int cavd_open_stream(AVFormatContext *fmt, int64_t max_pixels, const char *no_stream, cavd_stream *out,
                     AVFrame **frame, AVPacket **pkt, char *err, size_t errlen);

/// The stream's frame rate (average, else the real base rate), `fallback` when unknown or absurd.
double cavd_stream_fps(const AVStream *st, double fallback);

/// A pixel converter to RGBA at a fixed output size, made again when the input frames change
/// size or format.
typedef struct {
    struct SwsContext *sws;
    int w, h, fmt;
} cavd_scaler;

/// Converts `f` into `rgba` (width × height × 4 bytes, rows packed); -1 when no conversion exists.
int cavd_scale(cavd_scaler *s, const AVFrame *f, int width, int height, uint8_t *rgba);
void cavd_scaler_free(cavd_scaler *s);

#endif
