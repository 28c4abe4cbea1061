// Live capture through libavdevice (see include/live_capture.h). Written for this project.
#include "live_capture.h"
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
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
    struct SwsContext *sws;
    int sws_w, sws_h, sws_fmt;
    AVFrame *frame;
    AVPacket *pkt;
    cavd_info info;
    int draining;
    atomic_int interrupted;
};

static void live_err(char *err, size_t n, const char *what, int code) {
    if (!err || n == 0) return;
    if (code) {
        char buf[128];
        av_strerror(code, buf, sizeof buf);
        snprintf(err, n, "%s: %s", what, buf);
    } else {
        snprintf(err, n, "%s", what);
    }
}

static int interrupt_cb(void *opaque) {
    cavl_capture *c = opaque;
    return atomic_load(&c->interrupted);
}

static pthread_once_t register_once = PTHREAD_ONCE_INIT;
static void register_devices(void) { avdevice_register_all(); }

void cavl_interrupt(cavl_capture *c) { if (c) atomic_store(&c->interrupted, 1); }

void cavl_close(cavl_capture *c) {
    if (!c) return;
    if (c->sws) sws_freeContext(c->sws);
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
    if (!format || !device) { live_err(err, errlen, "no input format or device", 0); return NULL; }
    const AVInputFormat *ifmt = av_find_input_format(format);
    if (!ifmt) {
        char msg[160];
        snprintf(msg, sizeof msg, "unknown input format \"%.60s\" (libavdevice knows e.g. v4l2, lavfi)", format);
        live_err(err, errlen, msg, 0);
        return NULL;
    }
    cavl_capture *c = av_mallocz(sizeof *c);
    if (!c) { live_err(err, errlen, "out of memory", 0); return NULL; }
    atomic_init(&c->interrupted, 0);
    c->fmt = avformat_alloc_context();
    if (!c->fmt) { live_err(err, errlen, "out of memory", 0); cavl_close(c); return NULL; }
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
        live_err(err, errlen, "cannot open the device", r);
        cavl_close(c);
        return NULL;
    }
    if (av_dict_count(opts) > 0) {
        const AVDictionaryEntry *e = av_dict_get(opts, "", NULL, AV_DICT_IGNORE_SUFFIX);
        char msg[160];
        snprintf(msg, sizeof msg, "option \"%.60s\" is not one the %.20s input knows", e ? e->key : "?", format);
        av_dict_free(&opts);
        live_err(err, errlen, msg, 0);
        cavl_close(c);
        return NULL;
    }
    av_dict_free(&opts);
    r = avformat_find_stream_info(c->fmt, NULL);
    if (r < 0) { live_err(err, errlen, "no stream information", r); cavl_close(c); return NULL; }
    const AVCodec *dec = NULL;
    r = av_find_best_stream(c->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &dec, 0);
    if (r < 0 || !dec) { live_err(err, errlen, "not a video input (no video stream)", 0); cavl_close(c); return NULL; }
    c->stream = r;
    c->st = c->fmt->streams[r];
    const AVCodecParameters *par = c->st->codecpar;
    if (par->width <= 0 || par->height <= 0 || (int64_t)par->width * par->height > max_pixels) {
        live_err(err, errlen, "video frame size is empty or beyond the limit", 0);
        cavl_close(c); return NULL;
    }
    c->codec = avcodec_alloc_context3(dec);
    if (!c->codec) { live_err(err, errlen, "out of memory", 0); cavl_close(c); return NULL; }
    avcodec_parameters_to_context(c->codec, par);
    c->codec->thread_count = 1;
    r = avcodec_open2(c->codec, dec, NULL);
    if (r < 0) { live_err(err, errlen, "cannot open the video codec", r); cavl_close(c); return NULL; }
    c->frame = av_frame_alloc();
    c->pkt = av_packet_alloc();
    if (!c->frame || !c->pkt) { live_err(err, errlen, "out of memory", 0); cavl_close(c); return NULL; }
    AVRational rate = c->st->avg_frame_rate.num > 0 && c->st->avg_frame_rate.den > 0 ? c->st->avg_frame_rate : c->st->r_frame_rate;
    double fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    if (!(fps > 0 && fps < 10000)) fps = 30;
    c->info.width = par->width;
    c->info.height = par->height;
    c->info.fps = fps;
    c->info.frame_count = -1;
    if (info) *info = c->info;
    return c;
}

static int live_convert(cavl_capture *c, const AVFrame *f, uint8_t *rgba) {
    if (!c->sws || c->sws_w != f->width || c->sws_h != f->height || c->sws_fmt != f->format) {
        if (c->sws) sws_freeContext(c->sws);
        c->sws = sws_getContext(f->width, f->height, f->format, c->info.width, c->info.height, AV_PIX_FMT_RGBA,
                                SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
        c->sws_w = f->width; c->sws_h = f->height; c->sws_fmt = f->format;
        if (!c->sws) return -1;
    }
    uint8_t *dst[4] = { rgba, NULL, NULL, NULL };
    int stride[4] = { c->info.width * 4, 0, 0, 0 };
    sws_scale(c->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst, stride);
    return 0;
}

int cavl_read(cavl_capture *c, uint8_t *rgba, double *seconds, char *err, size_t errlen) {
    if (!c || !rgba) { live_err(err, errlen, "no capture", 0); return -1; }
    for (;;) {
        if (atomic_load(&c->interrupted)) return -2;
        int r = avcodec_receive_frame(c->codec, c->frame);
        if (r == 0) {
            int64_t pts = c->frame->best_effort_timestamp != AV_NOPTS_VALUE ? c->frame->best_effort_timestamp : c->frame->pts;
            if (seconds) *seconds = pts == AV_NOPTS_VALUE ? NAN : (double)pts * av_q2d(c->st->time_base);
            int ok = live_convert(c, c->frame, rgba);
            av_frame_unref(c->frame);
            if (ok < 0) { live_err(err, errlen, "no pixel conversion", 0); return -1; }
            return 1;
        }
        if (r == AVERROR_EOF) return 0;
        if (r != AVERROR(EAGAIN)) { live_err(err, errlen, "decoding failed", r); return -1; }
        if (c->draining) return 0;
        r = av_read_frame(c->fmt, c->pkt);
        if (r == AVERROR(EAGAIN)) { av_usleep(2000); continue; }
        if (r == AVERROR_EXIT || atomic_load(&c->interrupted)) { av_packet_unref(c->pkt); return -2; }
        if (r < 0) {
            if (r != AVERROR_EOF) { live_err(err, errlen, "reading the device failed", r); return -1; }
            c->draining = 1;
            avcodec_send_packet(c->codec, NULL);
            continue;
        }
        if (c->pkt->stream_index == c->stream) (void)avcodec_send_packet(c->codec, c->pkt);
        av_packet_unref(c->pkt);
    }
}
