// Hand-written GL baseline: headless EGL (device platform, else surfaceless Mesa), GL 3.3 core,
// an RGBA8 FBO, the scene's rounded rects as ONE instanced draw with a signed-distance fragment
// shader (analytic AA, premultiplied alpha, blend ONE / ONE_MINUS_SRC_ALPHA). No engine code.
#define EGL_NO_X11
#define EGL_EGLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

#include "GLBaseline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---- Scene ---------------------------------------------------------------------------------

// "lowbias32" integer hash (Chris Wellons). Re-implemented in peers/scene.py: keep them equal.
static uint32_t glb_mix(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352dU;
    x ^= x >> 15; x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

unsigned glb_scene_word(int i, int k, unsigned seed) {
    return glb_mix(glb_mix(seed ^ 0x9e3779b9U) ^ ((uint32_t)i * 8U + (uint32_t)k));
}

// Rect i uses words 0...5 of (i, seed): width = 20 + w0 % 181, height = 20 + w1 % 181 (181 is
// max_size - 20 + 1; each clamped to the canvas), x = w2 % (W - width + 1), y = w3 % (H - height + 1), fill colour
// r, g, b = bytes 0, 1, 2 of w4 / 255, border colour likewise from w5. Integer maths only, so
// any language reproduces it exactly (peers/scene.py does).
void glb_scene_rect_ex(int i, unsigned seed, int w, int h, int max_size, float out[12]) {
    if (max_size < GLB_SCENE_MIN_SIZE) max_size = GLB_SCENE_MIN_SIZE;
    const uint32_t span = (uint32_t)max_size - GLB_SCENE_MIN_SIZE + 1;
    uint32_t rw = GLB_SCENE_MIN_SIZE + glb_scene_word(i, 0, seed) % span;
    uint32_t rh = GLB_SCENE_MIN_SIZE + glb_scene_word(i, 1, seed) % span;
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    if (rw > (uint32_t)w) rw = (uint32_t)w;
    if (rh > (uint32_t)h) rh = (uint32_t)h;
    uint32_t x = glb_scene_word(i, 2, seed) % ((uint32_t)w - rw + 1);
    uint32_t y = glb_scene_word(i, 3, seed) % ((uint32_t)h - rh + 1);
    uint32_t f = glb_scene_word(i, 4, seed), b = glb_scene_word(i, 5, seed);
    out[0] = (float)x; out[1] = (float)y; out[2] = (float)rw; out[3] = (float)rh;
    out[4] = (float)(f & 255) / 255.0f;
    out[5] = (float)((f >> 8) & 255) / 255.0f;
    out[6] = (float)((f >> 16) & 255) / 255.0f;
    out[7] = GLB_SCENE_ALPHA;
    out[8] = (float)(b & 255) / 255.0f;
    out[9] = (float)((b >> 8) & 255) / 255.0f;
    out[10] = (float)((b >> 16) & 255) / 255.0f;
    out[11] = GLB_SCENE_ALPHA;
}

void glb_scene_rect_in(int i, unsigned seed, int w, int h, float out[12]) {
    glb_scene_rect_ex(i, seed, w, h, GLB_SCENE_MAX_SIZE, out);
}

void glb_scene_rect(int i, unsigned seed, float out[12]) {
    glb_scene_rect_in(i, seed, GLB_SCENE_WIDTH, GLB_SCENE_HEIGHT, out);
}

// ---- GL state ------------------------------------------------------------------------------

static struct {
    int ready;
    EGLDisplay display;
    EGLContext context;
    GLuint program, vao, vbo, fbo, tex;
    GLint u_viewport, u_radius, u_border;
    int fbw, fbh;                  // FBO size
    int sn, sw, sh, smax; unsigned sseed; // scene currently in the VBO
    int scene_valid;
    char renderer[256], version[256];
    const char *platform;
} G;

static void set_err(char *err, int errlen, const char *msg, long code) {
    if (err && errlen > 0) snprintf(err, (size_t)errlen, "%s (0x%lx)", msg, code);
}

static int has_ext(const char *list, const char *name) {
    if (!list) return 0;
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

static EGLDisplay open_display(void) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_ext(client, "EGL_EXT_platform_device")) {
        PFNEGLQUERYDEVICESEXTPROC queryDevices =
            (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        PFNEGLQUERYDEVICESTRINGEXTPROC queryString =
            (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (queryDevices && queryDevices(16, devices, &count) && count > 0) {
            EGLDeviceEXT chosen = devices[0];
            for (EGLint i = 0; i < count; i++) {
                const char *ext = queryString ? queryString(devices[i], EGL_EXTENSIONS) : NULL;
                if (!has_ext(ext, "EGL_MESA_device_software")) { chosen = devices[i]; break; }
            }
            EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, chosen, NULL);
            if (d != EGL_NO_DISPLAY) { G.platform = "device"; return d; }
        }
    }
    if (has_ext(client, "EGL_MESA_platform_surfaceless")) {
        G.platform = "surfaceless";
        return eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    }
    return EGL_NO_DISPLAY;
}

static const char *VS =
    "#version 330 core\n"
    "layout(location = 0) in vec4 a_rect;   // x, y, width, height in pixels, y down\n"
    "layout(location = 1) in vec4 a_fill;   // straight alpha\n"
    "layout(location = 2) in vec4 a_border; // straight alpha\n"
    "uniform vec2 u_viewport;\n"
    "out vec2 v_p;                          // pixel position relative to the rect's centre\n"
    "flat out vec2 v_hs;                    // half size\n"
    "flat out vec4 v_fill;                  // premultiplied\n"
    "flat out vec4 v_border;                // premultiplied\n"
    "void main() {\n"
    "    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
    "    vec2 hs = a_rect.zw * 0.5;\n"
    "    vec2 local = (corner * 2.0 - 1.0) * (hs + 0.5); // +0.5 px for the AA fringe\n"
    "    vec2 px = a_rect.xy + hs + local;\n"
    "    v_p = local;\n"
    "    v_hs = hs;\n"
    "    v_fill = vec4(a_fill.rgb * a_fill.a, a_fill.a);\n"
    "    v_border = vec4(a_border.rgb * a_border.a, a_border.a);\n"
    "    vec2 ndc = px / u_viewport * 2.0 - 1.0;\n"
    "    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);\n"
    "}\n";

static const char *FS =
    "#version 330 core\n"
    "in vec2 v_p;\n"
    "flat in vec2 v_hs;\n"
    "flat in vec4 v_fill;\n"
    "flat in vec4 v_border;\n"
    "uniform float u_radius;\n"
    "uniform float u_border;\n"
    "out vec4 o_color;\n"
    "float sd_round_rect(vec2 p, vec2 hs, float r) {\n"
    "    vec2 q = abs(p) - hs + r;\n"
    "    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;\n"
    "}\n"
    "void main() {\n"
    "    float d_outer = sd_round_rect(v_p, v_hs, u_radius);\n"
    "    float d_inner = sd_round_rect(v_p, v_hs - u_border, max(u_radius - u_border, 0.0));\n"
    "    float c_outer = clamp(0.5 - d_outer, 0.0, 1.0);\n"
    "    float c_inner = clamp(0.5 - d_inner, 0.0, 1.0);\n"
    "    vec4 border = v_border * max(c_outer - c_inner, 0.0);\n"
    "    vec4 fill = v_fill * c_outer;\n"
    "    o_color = border + fill * (1.0 - border.a); // border over background, premultiplied\n"
    "}\n";

static GLuint compile(GLenum type, const char *src, char *err, int errlen) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {0};
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        if (err && errlen > 0) snprintf(err, (size_t)errlen, "shader compile failed: %s", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

/// A linked program of the two shader sources, or 0 with the compile or link log in `err`.
static GLuint link_program(const char *vs_src, const char *fs_src, char *err, int errlen) {
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src, err, errlen);
    if (!vs) return 0;
    GLuint fs = compile(GL_FRAGMENT_SHADER, fs_src, err, errlen);
    if (!fs) { glDeleteShader(vs); return 0; }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = {0};
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        if (err && errlen > 0) snprintf(err, (size_t)errlen, "program link failed: %s", log);
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

int glb_init(char *err, int errlen) {
    // Ready already: make the context current again (an engine renderer in the same process may
    // have made its own current since).
    if (G.ready) {
        if (!eglMakeCurrent(G.display, EGL_NO_SURFACE, EGL_NO_SURFACE, G.context)) {
            set_err(err, errlen, "eglMakeCurrent failed", eglGetError()); return -1;
        }
        return 0;
    }
    if (!G.display) {  // one display per process: initialise once, never terminate
        G.display = open_display();
        if (G.display == EGL_NO_DISPLAY) { set_err(err, errlen, "no EGL display", eglGetError()); return -1; }
        EGLint major = 0, minor = 0;
        if (!eglInitialize(G.display, &major, &minor)) {
            set_err(err, errlen, "eglInitialize failed", eglGetError()); G.display = NULL; return -1;
        }
    }
    if (!eglBindAPI(EGL_OPENGL_API)) { set_err(err, errlen, "eglBindAPI failed", eglGetError()); return -1; }
    const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint nconfig = 0;
    if (!eglChooseConfig(G.display, config_attribs, &config, 1, &nconfig) || nconfig < 1) {
        set_err(err, errlen, "eglChooseConfig found no pbuffer config", eglGetError()); return -1;
    }
    const EGLint ctx_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    G.context = eglCreateContext(G.display, config, EGL_NO_CONTEXT, ctx_attribs);
    if (G.context == EGL_NO_CONTEXT) { set_err(err, errlen, "eglCreateContext failed", eglGetError()); return -1; }
    if (!eglMakeCurrent(G.display, EGL_NO_SURFACE, EGL_NO_SURFACE, G.context)) {
        set_err(err, errlen, "surfaceless eglMakeCurrent failed", eglGetError()); return -1;
    }
    snprintf(G.renderer, sizeof G.renderer, "%s", (const char *)glGetString(GL_RENDERER));
    snprintf(G.version, sizeof G.version, "%s", (const char *)glGetString(GL_VERSION));

    G.program = link_program(VS, FS, err, errlen);
    if (!G.program) return -1;
    G.u_viewport = glGetUniformLocation(G.program, "u_viewport");
    G.u_radius = glGetUniformLocation(G.program, "u_radius");
    G.u_border = glGetUniformLocation(G.program, "u_border");

    glGenVertexArrays(1, &G.vao);
    glGenBuffers(1, &G.vbo);
    glBindVertexArray(G.vao);
    glBindBuffer(GL_ARRAY_BUFFER, G.vbo);
    for (GLuint a = 0; a < 3; a++) {
        glEnableVertexAttribArray(a);
        glVertexAttribPointer(a, 4, GL_FLOAT, GL_FALSE, 12 * sizeof(float), (const void *)(a * 4 * sizeof(float)));
        glVertexAttribDivisor(a, 1);
    }
    G.ready = 1;
    return 0;
}

const char *glb_renderer(void) { return G.renderer; }
const char *glb_version(void) { return G.version; }
const char *glb_platform(void) { return G.platform ? G.platform : ""; }

static int ensure_fbo(int w, int h) {
    if (G.fbo && G.fbw == w && G.fbh == h) return 0;
    if (G.fbo) { glDeleteFramebuffers(1, &G.fbo); glDeleteTextures(1, &G.tex); }
    glGenTextures(1, &G.tex);
    glBindTexture(GL_TEXTURE_2D, G.tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &G.fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, G.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, G.tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return -1;
    G.fbw = w; G.fbh = h;
    return 0;
}

static int ensure_scene(int n, int w, int h, unsigned seed, int max_size) {
    if (G.scene_valid && G.sn == n && G.sw == w && G.sh == h && G.sseed == seed && G.smax == max_size) return 0;
    float *data = malloc((size_t)n * 12 * sizeof(float) + 1);
    if (!data) return -1;
    for (int i = 0; i < n; i++) glb_scene_rect_ex(i, seed, w, h, max_size, data + (size_t)i * 12);
    glBindBuffer(GL_ARRAY_BUFFER, G.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * 12 * sizeof(float)), data, GL_STATIC_DRAW);
    free(data);
    G.sn = n; G.sw = w; G.sh = h; G.sseed = seed; G.smax = max_size; G.scene_valid = 1;
    return 0;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void draw_frame(int n, int w, int h) {
    glBindFramebuffer(GL_FRAMEBUFFER, G.fbo);
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(G.program);
    glUniform2f(G.u_viewport, (float)w, (float)h);
    glUniform1f(G.u_radius, GLB_SCENE_RADIUS);
    glUniform1f(G.u_border, GLB_SCENE_BORDER);
    glBindVertexArray(G.vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
}

double glb_rects_ms(int n, int w, int h, int frames, unsigned seed) {
    return glb_rects_ms_ex(n, w, h, frames, seed, GLB_SCENE_MAX_SIZE);
}

/// Premultiplied source-over blending, one warm-up frame (it pays for shader variants and
/// binning setup), then the median of `frames` timed frames, each waited for with glFinish.
// One query object per context would be tidier; a fresh one per measurement is simpler, and
// its cost (a name allocation) is outside the timed stretch.
static GLuint timer_query;
static int timer_running;

int glb_gpu_timer_begin(void) {
    if (eglGetCurrentContext() == EGL_NO_CONTEXT) return -1;
    GLint bits = 0;
    glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
    if (bits <= 0) return -1;
    glGenQueries(1, &timer_query);
    glBeginQuery(GL_TIME_ELAPSED, timer_query);
    timer_running = 1;
    return 0;
}

double glb_gpu_timer_end_ms(void) {
    if (!timer_running) return -1;
    timer_running = 0;
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(timer_query, GL_QUERY_RESULT, &ns);  // waits for the result
    glDeleteQueries(1, &timer_query);
    return (double)ns * 1e-6;
}

static double last_gpu_ms = -1;
double glb_last_gpu_ms(void) { return last_gpu_ms; }

static double median_frame_ms(void (*frame)(int, int, int), int n, int w, int h, int frames) {
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_DITHER);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    frame(n, w, h);
    glFinish();
    double *t = malloc((size_t)frames * sizeof(double));
    if (!t) return -4;
    double *g = malloc((size_t)frames * sizeof(double));
    if (!g) { free(t); return -4; }
    int timed = 0;
    for (int f = 0; f < frames; f++) {
        double t0 = now_ms();
        int q = glb_gpu_timer_begin() == 0;
        frame(n, w, h);
        if (q) { glEndQuery(GL_TIME_ELAPSED); timer_running = 0; }
        glFinish();
        t[f] = now_ms() - t0;
        // Read after the clock stops: the wait for the result is not the frame's.
        if (q) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(timer_query, GL_QUERY_RESULT, &ns);
            glDeleteQueries(1, &timer_query);
            g[timed++] = (double)ns * 1e-6;
        }
    }
    qsort(t, (size_t)frames, sizeof(double), cmp_double);
    double median = frames % 2 ? t[frames / 2] : 0.5 * (t[frames / 2 - 1] + t[frames / 2]);
    free(t);
    last_gpu_ms = -1;
    if (timed == frames) {
        qsort(g, (size_t)frames, sizeof(double), cmp_double);
        last_gpu_ms = frames % 2 ? g[frames / 2] : 0.5 * (g[frames / 2 - 1] + g[frames / 2]);
    }
    free(g);
    if (glGetError() != GL_NO_ERROR) return -5;
    return median;
}

double glb_rects_ms_ex(int n, int w, int h, int frames, unsigned seed, int max_size) {
    if (!G.ready || n < 0 || w < 1 || h < 1 || frames < 1) return -1;
    if (ensure_fbo(w, h) != 0) return -2;
    if (ensure_scene(n, w, h, seed, max_size) != 0) return -3;
    return median_frame_ms(draw_frame, n, w, h, frames);
}

int glb_read_rgba(unsigned char *rgba, int w, int h) {
    if (!G.ready || !G.fbo || w != G.fbw || h != G.fbh || !rgba) return -1;
    glBindFramebuffer(GL_FRAMEBUFFER, G.fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    // GL rows are bottom-up: flip to top-down in place.
    size_t row = (size_t)w * 4;
    unsigned char *tmp = malloc(row);
    if (!tmp) return -2;
    for (int y = 0; y < h / 2; y++) {
        unsigned char *a = rgba + (size_t)y * row, *b = rgba + (size_t)(h - 1 - y) * row;
        memcpy(tmp, a, row); memcpy(a, b, row); memcpy(b, tmp, row);
    }
    free(tmp);
    return glGetError() == GL_NO_ERROR ? 0 : -3;
}

// ---- Textured quads (the particle floor) ----------------------------------------------------
// n turned, tinted quads of one side x side white RGBA8 texture (linear filtering), placed by a
// hash of their index over the canvas: what an emitter keeping n live particles of one image
// draws, with the engine's pixels: each quad grown by 0.75 px and antialiased by its distance
// to the square (coverage clamp(0.5 - d), d in pixels), the texture sampled at the clamped uv,
// times the premultiplied tint. One instanced draw, premultiplied source-over, glFinish per
// frame; the 32-byte instances are uploaded every frame (particles move every frame, so a
// particle renderer sends them every frame, as the engine does).

static const char *QVS =
    "#version 330 core\n"
    "layout(location = 0) in vec4 a_place;  // centre x, y (pixels, y down), angle, side\n"
    "layout(location = 1) in vec4 a_tint;   // premultiplied\n"
    "uniform vec2 u_viewport;\n"
    "out vec4 v_puv;                        // xy: point from the centre (px), zw: uv\n"
    "flat out vec4 v_tint;\n"
    "flat out float v_half;\n"
    "void main() {\n"
    "    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
    "    float hs = 0.5 * a_place.w;\n"
    "    vec2 local = mix(vec2(-hs - 0.75), vec2(hs + 0.75), corner);\n"
    "    float c = cos(a_place.z), s = sin(a_place.z);\n"
    "    vec2 px = a_place.xy + vec2(c * local.x - s * local.y, s * local.x + c * local.y);\n"
    "    v_puv = vec4(local, (local + hs) / a_place.w);\n"
    "    v_tint = a_tint;\n"
    "    v_half = hs;\n"
    "    vec2 ndc = px / u_viewport * 2.0 - 1.0;\n"
    "    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);\n"
    "}\n";

static const char *QFS =
    "#version 330 core\n"
    "in vec4 v_puv;\n"
    "flat in vec4 v_tint;\n"
    "flat in float v_half;\n"
    "uniform sampler2D u_tex;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec2 q = abs(v_puv.xy) - v_half;\n"
    "    float d = length(max(q, 0.0)) + min(max(q.x, q.y), 0.0);\n"
    "    float cov = clamp(0.5 - d, 0.0, 1.0);\n"
    "    o_color = texture(u_tex, clamp(v_puv.zw, 0.0, 1.0)) * v_tint * cov;\n"
    "}\n";

static struct {
    int ready;
    GLuint program, vao, vbo, tex;
    GLint u_viewport, u_tex;
    int n, w, h, side;
    float *data;       // n instances of 8 floats, uploaded each frame
} Q;

static int quads_init(char *err, int errlen) {
    if (Q.ready) return 0;
    Q.program = link_program(QVS, QFS, err, errlen);
    if (!Q.program) return -1;
    Q.u_viewport = glGetUniformLocation(Q.program, "u_viewport");
    Q.u_tex = glGetUniformLocation(Q.program, "u_tex");
    glGenVertexArrays(1, &Q.vao);
    glGenBuffers(1, &Q.vbo);
    glBindVertexArray(Q.vao);
    glBindBuffer(GL_ARRAY_BUFFER, Q.vbo);
    for (GLuint a = 0; a < 2; a++) {
        glEnableVertexAttribArray(a);
        glVertexAttribPointer(a, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (const void *)(a * 4 * sizeof(float)));
        glVertexAttribDivisor(a, 1);
    }
    glGenTextures(1, &Q.tex);
    Q.ready = 1;
    return 0;
}

/// The side x side white texture, linear, clamped to its edge.
static int quads_texture(int side) {
    unsigned char *px = malloc((size_t)side * side * 4);
    if (!px) return -1;
    memset(px, 255, (size_t)side * side * 4);
    glBindTexture(GL_TEXTURE_2D, Q.tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, side, side, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    free(px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return 0;
}

static int quads_scene(int n, int w, int h, int side) {
    if (Q.data && Q.n == n && Q.w == w && Q.h == h && Q.side == side) return 0;
    free(Q.data);
    Q.data = malloc((size_t)n * 8 * sizeof(float) + 1);
    if (!Q.data) return -1;
    for (int i = 0; i < n; i++) {
        float *q = Q.data + (size_t)i * 8;
        q[0] = (float)(glb_scene_word(i, 0, 7u) % (unsigned)w);
        q[1] = (float)(glb_scene_word(i, 1, 7u) % (unsigned)h);
        q[2] = (float)(glb_scene_word(i, 2, 7u) % 6283u) / 1000.0f;
        q[3] = (float)side;
        float a = 0.3f + 0.5f * (float)(glb_scene_word(i, 3, 7u) % 1000u) / 1000.0f;
        q[4] = 0.9f * a; q[5] = 0.6f * a; q[6] = 0.3f * a; q[7] = a;
    }
    if (quads_texture(side) != 0) return -1;
    Q.n = n; Q.w = w; Q.h = h; Q.side = side;
    return 0;
}

static void quads_frame(int n, int w, int h) {
    glBindFramebuffer(GL_FRAMEBUFFER, G.fbo);
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(Q.program);
    glUniform2f(Q.u_viewport, (float)w, (float)h);
    glUniform1i(Q.u_tex, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, Q.tex);
    glBindVertexArray(Q.vao);
    glBindBuffer(GL_ARRAY_BUFFER, Q.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * 8 * sizeof(float)), Q.data, GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
}

double glb_quads_ms(int n, int w, int h, int frames, int side) {
    if (!G.ready || n < 0 || w < 1 || h < 1 || frames < 1 || side < 1 || side > 4096) return -1;
    if (quads_init(NULL, 0) != 0) return -6;
    if (ensure_fbo(w, h) != 0) return -2;
    if (quads_scene(n, w, h, side) != 0) return -3;
    return median_frame_ms(quads_frame, n, w, h, frames);
}

int glb_quads_draw(const float *instances, int n, int w, int h, int side) {
    if (!G.ready || !instances || n < 0 || n > 16 * 1024 * 1024 || w < 1 || h < 1 || side < 1 || side > 4096) return -1;
    if (quads_init(NULL, 0) != 0) return -6;
    if (ensure_fbo(w, h) != 0) return -2;
    free(Q.data);
    Q.data = malloc((size_t)n * 8 * sizeof(float) + 1);
    if (!Q.data) return -3;
    memcpy(Q.data, instances, (size_t)n * 8 * sizeof(float));
    if (quads_texture(side) != 0) return -3;
    Q.n = -1;  // not the hashed scene: glb_quads_ms makes that again
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_DITHER);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    quads_frame(n, w, h);
    glFinish();
    return glGetError() == GL_NO_ERROR ? 0 : -5;
}

// ---- Grid of rounded rects (the replicator floor) ----------------------------------------------
// The rect program (VS/FS above) over a grid of copies of one cell: what a replicator of
// replicators draws as instances. Radius, border and the clear colour are the scene's own.

static struct { float radius, border, bg[4]; } GR;

static void grid_frame(int n, int w, int h) {
    glBindFramebuffer(GL_FRAMEBUFFER, G.fbo);
    glViewport(0, 0, w, h);
    // The background, premultiplied (the engine draws the root's background as one box).
    glClearColor(GR.bg[0] * GR.bg[3], GR.bg[1] * GR.bg[3], GR.bg[2] * GR.bg[3], GR.bg[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(G.program);
    glUniform2f(G.u_viewport, (float)w, (float)h);
    glUniform1f(G.u_radius, GR.radius);
    glUniform1f(G.u_border, GR.border);
    glBindVertexArray(G.vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, n);
}

double glb_grid_ms(int cols, int rows, float dx, float dy, const float cell[4], float radius, float border,
                   const float fill[4], const float stroke[4], const float background[4], int w, int h, int frames) {
    if (!G.ready || cols < 0 || rows < 0 || w < 1 || h < 1 || frames < 1 || !cell || !fill || !stroke || !background) return -1;
    if ((long)cols * rows > 16L * 1024 * 1024) return -1;
    if (ensure_fbo(w, h) != 0) return -2;
    int n = cols * rows;
    float *data = malloc((size_t)n * 12 * sizeof(float) + 1);
    if (!data) return -3;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            float *q = data + ((size_t)r * cols + c) * 12;
            q[0] = cell[0] + c * dx; q[1] = cell[1] + r * dy; q[2] = cell[2]; q[3] = cell[3];
            // Tinted per copy as the replicators' colour offsets do (red by column, green by row).
            float tr = 1.0f - 0.008f * c, tg = 1.0f - 0.008f * r;
            q[4] = fill[0] * tr; q[5] = fill[1] * tg; q[6] = fill[2]; q[7] = fill[3];
            q[8] = stroke[0] * tr; q[9] = stroke[1] * tg; q[10] = stroke[2]; q[11] = stroke[3];
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, G.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * 12 * sizeof(float)), data, GL_STATIC_DRAW);
    free(data);
    G.scene_valid = 0;  // the VBO no longer holds the rect scene
    GR.radius = radius; GR.border = border;
    memcpy(GR.bg, background, sizeof GR.bg);
    return median_frame_ms(grid_frame, n, w, h, frames);
}
