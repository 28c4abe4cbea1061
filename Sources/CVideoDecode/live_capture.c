// Live capture through libavdevice (see include/live_capture.h). Written for this project.
#include "live_capture.h"
#include "stream_common.h"
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/time.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>

struct cavl_capture {
    AVFormatContext *fmt;
    AVCodecContext *codec;
    AVStream *st;
    int stream;
    cavd_scaler scaler;
    AVFrame *frame;
    AVPacket *pkt;
    cavd_info info;
    int draining;
    atomic_int interrupted;
};

static int interrupt_cb(void *opaque) {
    cavl_capture *c = opaque;
    return atomic_load(&c->interrupted);
}

static pthread_once_t register_once = PTHREAD_ONCE_INIT;
static void register_devices(void) { avdevice_register_all(); }

void cavl_interrupt(cavl_capture *c) { if (c) atomic_store(&c->interrupted, 1); }

void cavl_close(cavl_capture *c) {
    if (!c) return;
    cavd_scaler_free(&c->scaler);
    av_frame_free(&c->frame);
    av_packet_free(&c->pkt);
    avcodec_free_context(&c->codec);
    if (c->fmt) avformat_close_input(&c->fmt);
    av_free(c);
}

cavl_capture *cavl_open(const char *format, const char *device, const char *const *keys, const char *const *values,
                        int count, int64_t max_pixels, cavd_info *info, char *err, size_t errlen) {
    av_log_set_level(AV_LOG_QUIET);
    pthread_once(&register_once, register_devices);
    if (!format || !device) { cavd_set_err(err, errlen, "no input format or device", 0); return NULL; }
    const AVInputFormat *ifmt = av_find_input_format(format);
    if (!ifmt) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown input format \"%.60s\" (libavdevice knows e.g. v4l2, lavfi)", format);
        cavd_set_err(err, errlen, msg, 0);
        return NULL;
    }
    cavl_capture *c = av_mallocz(sizeof *c);
    if (!c) { cavd_set_err(err, errlen, "out of memory", 0); return NULL; }
    atomic_init(&c->interrupted, 0);
    c->fmt = avformat_alloc_context();
    if (!c->fmt) { cavd_set_err(err, errlen, "out of memory", 0); cavl_close(c); return NULL; }
    c->fmt->interrupt_callback.callback = interrupt_cb;
    c->fmt->interrupt_callback.opaque = c;
    // Non-blocking reads: a device with no frame ready answers EAGAIN and cavl_read polls, so an
    // interrupt ends a wait on a camera that stopped delivering.
    c->fmt->flags |= AVFMT_FLAG_NONBLOCK;
    AVDictionary *opts = NULL;
    for (int i = 0; i < count; i++) {
        if (keys[i] && values[i]) av_dict_set(&opts, keys[i], values[i], 0);
    }
    int r = avformat_open_input(&c->fmt, device, ifmt, &opts);
    if (r < 0) {
        av_dict_free(&opts);
        c->fmt = NULL;  // freed by avformat_open_input on failure
        cavd_set_err(err, errlen, "cannot open the device", r);
        cavl_close(c);
        return NULL;
    }
    if (av_dict_count(opts) > 0) {
        const AVDictionaryEntry *e = av_dict_get(opts, "", NULL, AV_DICT_IGNORE_SUFFIX);
        char msg[160];
        snprintf(msg, sizeof msg, "option \"%.60s\" is not one the %.20s input knows", e ? e->key : "?", format);
        av_dict_free(&opts);
        cavd_set_err(err, errlen, msg, 0);
        cavl_close(c);
        return NULL;
    }
    av_dict_free(&opts);
    cavd_stream st = { 0 };
    r = cavd_open_stream(c->fmt, max_pixels, "not a video input (no video stream)", &st, &c->frame, &c->pkt, err, errlen);
    c->codec = st.codec;
    c->st = st.st;
    c->stream = st.stream;
    if (r < 0) { cavl_close(c); return NULL; }
    const AVCodecParameters *par = c->st->codecpar;
    double fps = cavd_stream_fps(c->st, 30);
    c->info.width = par->width;
    c->info.height = par->height;
    c->info.fps = fps;
    c->info.frame_count = -1;
    if (info) *info = c->info;
    return c;
}

int cavl_read(cavl_capture *c, uint8_t *rgba, double *seconds, char *err, size_t errlen) {
    if (!c || !rgba) { cavd_set_err(err, errlen, "no capture", 0); return -1; }
    for (;;) {
        if (atomic_load(&c->interrupted)) return -2;
        int r = avcodec_receive_frame(c->codec, c->frame);
        if (r == 0) {
            int64_t pts = c->frame->best_effort_timestamp != AV_NOPTS_VALUE ? c->frame->best_effort_timestamp : c->frame->pts;
            if (seconds) *seconds = pts == AV_NOPTS_VALUE ? NAN : (double)pts * av_q2d(c->st->time_base);
            int ok = cavd_scale(&c->scaler, c->frame, c->info.width, c->info.height, rgba);
            av_frame_unref(c->frame);
            if (ok < 0) { cavd_set_err(err, errlen, "no pixel conversion", 0); return -1; }
            return 1;
        }
        if (r == AVERROR_EOF) return 0;
        if (r != AVERROR(EAGAIN)) { cavd_set_err(err, errlen, "decoding failed", r); return -1; }
        if (c->draining) return 0;
        r = av_read_frame(c->fmt, c->pkt);
        if (r == AVERROR(EAGAIN)) { av_usleep(2000); continue; }
        if (r == AVERROR_EXIT || atomic_load(&c->interrupted)) { av_packet_unref(c->pkt); return -2; }
        if (r < 0) {
            if (r != AVERROR_EOF) { cavd_set_err(err, errlen, "reading the device failed", r); return -1; }
            c->draining = 1;
            avcodec_send_packet(c->codec, NULL);
            continue;
        }
        if (c->pkt->stream_index == c->stream) (void)avcodec_send_packet(c->codec, c->pkt);
        av_packet_unref(c->pkt);
    }
}
