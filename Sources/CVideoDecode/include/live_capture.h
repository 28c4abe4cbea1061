// Live video capture for CAVideoLayer's live source (issue 19): a device or synthetic input
// opened through libavdevice (V4L2 cameras, FFmpeg's `lavfi` filter-graph sources), decoded
// frame after frame. The header names no FFmpeg type (see Sources/CFFmpeg/shim.h for why).
#ifndef CA_LIVE_CAPTURE_H
#define CA_LIVE_CAPTURE_H
#include <stddef.h>
#include <stdint.h>
#include "video_decode.h"

typedef struct cavl_capture cavl_capture;

/// Opens `device` with the libavdevice input format named `format` ("v4l2", "lavfi", …), with
/// `count` demuxer options (`keys[i]` = `values[i]`, e.g. "video_size" = "640x480"). NULL with a
/// message in `err` when the format is unknown, the device cannot be opened, an option is not
/// recognised, the input has no video stream, or its frames exceed `max_pixels`. `info` gets the
/// stream's size and rate (frame_count is -1: a live input has no end).
cavl_capture *cavl_open(const char *format, const char *device, const char *const *keys, const char *const *values,
                        int count, int64_t max_pixels, cavd_info *info, char *err, size_t errlen);

/// Reads and decodes the next frame into `rgba` (width × height × 4 bytes, rows from the top,
/// A = 255) and its presentation time in seconds into `*seconds` (NaN when the input gives
/// none). Returns 1 for a frame, 0 at the end of the input, -1 with a message in `err` on an
/// error, -2 when `cavl_interrupt` stopped it. Blocks until a frame arrives (a device that has
/// none yet is polled every 2 ms, so an interrupt ends the wait).
int cavl_read(cavl_capture *c, uint8_t *rgba, double *seconds, char *err, size_t errlen);

/// Makes the current or next `cavl_read` return -2 (safe from any thread).
void cavl_interrupt(cavl_capture *c);

void cavl_close(cavl_capture *c);

#endif
