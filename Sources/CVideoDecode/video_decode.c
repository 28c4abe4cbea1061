// Frame-exact decoding on FFmpeg (see include/video_decode.h). Written for this project.
#include "video_decode.h"
#include "stream_common.h"
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/imgutils.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

/// Frames decoded forward, at most, instead of seeking (a seek lands on a keyframe and decodes
/// forward from there anyway; a short gap is cheaper to decode through).
#define CAVD_FORWARD_LIMIT 48

struct cavd_decoder {
    AVFormatContext *fmt;
    AVCodecContext *codec;
    AVStream *st;
    int stream;
    cavd_scaler scaler;
    AVFrame *frame;     // the frame being received
    AVFrame *last;      // the last frame received (kept for a request past the end)
    AVPacket *pkt;
    cavd_info info;
    int64_t start;      // the stream's first timestamp (its time base)
    int64_t last_index; // index of `last`, -1 when none since the last seek
    int64_t seeks;
    int draining;       // the demuxer reached its end; the codec is being flushed
};

void cavd_close(cavd_decoder *d) {
    if (!d) return;
    cavd_scaler_free(&d->scaler);
    av_frame_free(&d->frame);
    av_frame_free(&d->last);
    av_packet_free(&d->pkt);
    avcodec_free_context(&d->codec);
    if (d->fmt) avformat_close_input(&d->fmt);
    av_free(d);
}

cavd_decoder *cavd_open(const char *path, int64_t max_pixels, cavd_info *info, char *err, size_t errlen) {
    av_log_set_level(AV_LOG_QUIET);
    cavd_decoder *d = av_mallocz(sizeof *d);
    if (!d) { cavd_set_err(err, errlen, "out of memory", 0); return NULL; }
    d->last_index = -1;
    int r = avformat_open_input(&d->fmt, path, NULL, NULL);
    if (r < 0) { cavd_set_err(err, errlen, "not a media file FFmpeg can open", r); d->fmt = NULL; cavd_close(d); return NULL; }
    cavd_stream st = { 0 };
    r = cavd_open_stream(d->fmt, max_pixels, "no video stream", &st, &d->frame, &d->pkt, err, errlen);
    d->codec = st.codec;
    d->st = st.st;
    d->stream = st.stream;
    if (r < 0) { cavd_close(d); return NULL; }
    d->last = av_frame_alloc();
    if (!d->last) { cavd_set_err(err, errlen, "out of memory", 0); cavd_close(d); return NULL; }
    const AVCodecParameters *par = d->st->codecpar;
    double fps = cavd_stream_fps(d->st, 25);
    d->start = d->st->start_time != AV_NOPTS_VALUE ? d->st->start_time : 0;
    d->info.width = par->width;
    d->info.height = par->height;
    d->info.fps = fps;
    double tb = av_q2d(d->st->time_base);
    if (d->st->nb_frames > 0) d->info.frame_count = d->st->nb_frames;
    else if (d->st->duration != AV_NOPTS_VALUE && d->st->duration > 0) d->info.frame_count = (int64_t)llround(d->st->duration * tb * fps);
    else if (d->fmt->duration != AV_NOPTS_VALUE && d->fmt->duration > 0) d->info.frame_count = (int64_t)llround(d->fmt->duration / (double)AV_TIME_BASE * fps);
    else d->info.frame_count = -1;
    if (info) *info = d->info;
    return d;
}

int64_t cavd_seek_count(const cavd_decoder *d) { return d ? d->seeks : 0; }

/// Index of a decoded frame from its timestamp.
static int64_t frame_index(const cavd_decoder *d, const AVFrame *f) {
    int64_t pts = f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp : f->pts;
    if (pts == AV_NOPTS_VALUE) return d->last_index + 1;
    double t = (double)(pts - d->start) * av_q2d(d->st->time_base);
    return (int64_t)llround(t * d->info.fps);
}

/// Receives the next frame into d->frame: 1, 0 at the end of the stream, < 0 on error.
static int decode_next(cavd_decoder *d) {
    for (;;) {
        int r = avcodec_receive_frame(d->codec, d->frame);
        if (r == 0) return 1;
        if (r == AVERROR_EOF) return 0;
        if (r != AVERROR(EAGAIN)) return r;
        if (d->draining) return 0;
        r = av_read_frame(d->fmt, d->pkt);
        if (r < 0) {
            d->draining = 1;
            avcodec_send_packet(d->codec, NULL);
            continue;
        }
        if (d->pkt->stream_index == d->stream) {
            r = avcodec_send_packet(d->codec, d->pkt);
            // A corrupt packet is skipped; the decoder goes on with the next.
            (void)r;
        }
        av_packet_unref(d->pkt);
    }
}

static int seek_to(cavd_decoder *d, int64_t index) {
    double tb = av_q2d(d->st->time_base);
    int64_t ts = d->start + (int64_t)llround((double)index / d->info.fps / tb);
    int r = av_seek_frame(d->fmt, d->stream, ts, AVSEEK_FLAG_BACKWARD);
    if (r < 0) r = av_seek_frame(d->fmt, d->stream, d->start, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY);
    avcodec_flush_buffers(d->codec);
    d->draining = 0;
    d->last_index = -1;
    av_frame_unref(d->last);
    d->seeks++;
    return r;
}

static int convert(cavd_decoder *d, const AVFrame *f, uint8_t *rgba) {
    return cavd_scale(&d->scaler, f, d->info.width, d->info.height, rgba);
}

int64_t cavd_decode_frame(cavd_decoder *d, int64_t index, uint8_t *rgba, char *err, size_t errlen) {
    if (!d || !rgba) { cavd_set_err(err, errlen, "no decoder", 0); return -1; }
    if (index < 0) index = 0;
    int fresh = d->last_index < 0 && d->seeks == 0 && !d->draining && d->last->buf[0] == NULL;
    int ahead = index > d->last_index && index - d->last_index <= CAVD_FORWARD_LIMIT;
    if (!(fresh && index <= CAVD_FORWARD_LIMIT) && !(d->last_index >= 0 && ahead)) {
        seek_to(d, index);
    }
    int retried = 0;
    for (;;) {
        int r = decode_next(d);
        if (r < 0) { cavd_set_err(err, errlen, "decoding failed", r); return -1; }
        if (r == 0) {
            // Past the end: the last frame holds.
            if (d->last->buf[0]) {
                if (convert(d, d->last, rgba) < 0) { cavd_set_err(err, errlen, "no pixel conversion", 0); return -1; }
                return d->last_index;
            }
            if (!retried && d->seeks > 0) {
                // The seek landed past every frame: decode from the start.
                retried = 1;
                av_seek_frame(d->fmt, d->stream, d->start, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY);
                avcodec_flush_buffers(d->codec);
                d->draining = 0;
                continue;
            }
            cavd_set_err(err, errlen, "the video has no frames", 0);
            return -1;
        }
        int64_t i = frame_index(d, d->frame);
        if (i < d->last_index) i = d->last_index + 1;  // timestamps that go back count on
        if (i > index && d->last_index < 0 && !retried && i > 0) {
            // The seek landed after the frame (the demuxer had no earlier keyframe for it):
            // start again from the beginning.
            retried = 1;
            av_frame_unref(d->frame);
            av_seek_frame(d->fmt, d->stream, d->start, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY);
            avcodec_flush_buffers(d->codec);
            d->draining = 0;
            d->seeks++;
            continue;
        }
        av_frame_unref(d->last);
        av_frame_move_ref(d->last, d->frame);
        d->last_index = i;
        if (i >= index) {
            if (convert(d, d->last, rgba) < 0) { cavd_set_err(err, errlen, "no pixel conversion", 0); return -1; }
            return i;
        }
    }
}
