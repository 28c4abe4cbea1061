// Frame-exact video decoding for CAVideoLayer (issue 19), on FFmpeg's libraries. The header
// names no FFmpeg type (see Sources/CFFmpeg/shim.h for why).
#ifndef CA_VIDEO_DECODE_H
#define CA_VIDEO_DECODE_H
#include <stddef.h>
#include <stdint.h>

typedef struct cavd_decoder cavd_decoder;

/// What an opened file holds: its first video stream's size, frame rate and frame count.
typedef struct {
    int width;
    int height;
    /// Frames per second (the stream's average rate, else its base rate); > 0.
    double fps;
    /// Frames in the stream: counted by the container when it says, else from its duration;
    /// -1 when neither is known.
    int64_t frame_count;
} cavd_info;

/// Opens the video file at `path`. NULL with a message in `err` when the file cannot be opened,
/// is not a media file, has no video stream, or its codec cannot be opened. Frames larger than
/// `max_pixels` are refused (bounded memory).
cavd_decoder *cavd_open(const char *path, int64_t max_pixels, cavd_info *info, char *err, size_t errlen);

/// Decodes frame `index` (0-based, in presentation order) into `rgba` (width × height × 4 bytes,
/// rows from the top, R G B A with A = 255). Frame-exact: when the frame is not ahead of the
/// last one decoded, or far ahead, the decoder seeks to the keyframe at or before it and
/// decodes forward; otherwise it decodes on from where it is (sequential playback never
/// seeks). Returns the index of the frame written (the last frame when `index` is past the
/// end), or -1 with a message in `err` when nothing could be decoded. `*seeks` counts seeks.
int64_t cavd_decode_frame(cavd_decoder *d, int64_t index, uint8_t *rgba, char *err, size_t errlen);

/// Seeks made since the decoder was opened (tests: sequential frames make none).
int64_t cavd_seek_count(const cavd_decoder *d);

void cavd_close(cavd_decoder *d);

#endif
