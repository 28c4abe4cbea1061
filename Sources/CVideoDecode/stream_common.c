// See stream_common.h. Written for this project.
#include "stream_common.h"
#include <stdio.h>

void cavd_set_err(char *err, size_t n, const char *what, int code) {
    if (!err || n == 0) return;
    if (code) {
        char buf[128];
        av_strerror(code, buf, sizeof buf);
        snprintf(err, n, "%s: %s", what, buf);
    } else {
        snprintf(err, n, "%s", what);
    }
}

int cavd_open_stream(AVFormatContext *fmt, int64_t max_pixels, const char *no_stream, cavd_stream *out,
                     AVFrame **frame, AVPacket **pkt, char *err, size_t errlen) {
    int r = avformat_find_stream_info(fmt, NULL);
    if (r < 0) { cavd_set_err(err, errlen, "no stream information", r); return -1; }
    const AVCodec *dec = NULL;
    r = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &dec, 0);
    if (r < 0 || !dec) { cavd_set_err(err, errlen, no_stream, r < 0 ? r : 0); return -1; }
    out->stream = r;
    out->st = fmt->streams[r];
    const AVCodecParameters *par = out->st->codecpar;
    if (par->width <= 0 || par->height <= 0 || (int64_t)par->width * par->height > max_pixels) {
        cavd_set_err(err, errlen, "video frame size is empty or beyond the limit", 0);
        return -1;
    }
    out->codec = avcodec_alloc_context3(dec);
    if (!out->codec) { cavd_set_err(err, errlen, "out of memory", 0); return -1; }
    avcodec_parameters_to_context(out->codec, par);
    out->codec->thread_count = 1;
    r = avcodec_open2(out->codec, dec, NULL);
    if (r < 0) { cavd_set_err(err, errlen, "cannot open the video codec", r); return -1; }
    *frame = av_frame_alloc();
    *pkt = av_packet_alloc();
    if (!*frame || !*pkt) { cavd_set_err(err, errlen, "out of memory", 0); return -1; }
    return 0;
}

double cavd_stream_fps(const AVStream *st, double fallback) {
    AVRational rate = st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0 ? st->avg_frame_rate : st->r_frame_rate;
    double fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    return fps > 0 && fps < 10000 ? fps : fallback;
}

int cavd_scale(cavd_scaler *s, const AVFrame *f, int width, int height, uint8_t *rgba) {
    if (!s->sws || s->w != f->width || s->h != f->height || s->fmt != f->format) {
        if (s->sws) sws_freeContext(s->sws);
        s->sws = sws_getContext(f->width, f->height, f->format, width, height, AV_PIX_FMT_RGBA,
                                SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
        s->w = f->width; s->h = f->height; s->fmt = f->format;
        if (!s->sws) return -1;
    }
    uint8_t *dst[4] = { rgba, NULL, NULL, NULL };
    int stride[4] = { width * 4, 0, 0, 0 };
    sws_scale(s->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst, stride);
    return 0;
}

void cavd_scaler_free(cavd_scaler *s) {
    if (s->sws) sws_freeContext(s->sws);
    s->sws = NULL;
}
