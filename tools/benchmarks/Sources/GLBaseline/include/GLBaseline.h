// The floor for the renderer benchmark: hand-written GL through headless EGL, no engine.
// Also the one definition of the benchmark scene ("rounded rects"), shared with the engine
// benchmark (Swift, through glb_scene_rect) and the CPU peers (Python, through --dump-scene or
// peers/scene.py, which re-implements the same integer generator).
#ifndef GLBASELINE_H
#define GLBASELINE_H

#ifdef __cplusplus
extern "C" {
#endif

// ---- The scene ----------------------------------------------------------------------------
// N rounded rects over a W x H canvas (y down, origin top left), drawn in index order with
// source-over. Rect i depends only on (i, seed, W, H): see glb_scene_rect_in for the exact rule.
#define GLB_SCENE_COUNT   10000
#define GLB_SCENE_SEED    1u
#define GLB_SCENE_WIDTH   1920
#define GLB_SCENE_HEIGHT  1080
#define GLB_SCENE_MIN_SIZE 20    // width and height: independent integers, uniform in [20, 200]
#define GLB_SCENE_MAX_SIZE 200
#define GLB_SCENE_RADIUS  8.0f   // corner radius of the bounds
#define GLB_SCENE_BORDER  2.0f   // border width, inside the bounds (inner radius 6)
#define GLB_SCENE_ALPHA   0.8f   // alpha of both the fill and the border colour

/// Rect i of the scene over a w x h canvas, as 12 floats:
///   out[0..3]  x, y, width, height   (integral pixels, fully inside the canvas)
///   out[4..7]  fill colour   r, g, b, a (straight alpha, a = GLB_SCENE_ALPHA)
///   out[8..11] border colour r, g, b, a (straight alpha, a = GLB_SCENE_ALPHA)
/// Drawing rule: fill the rounded rect (radius 8) with the fill colour, then draw over it the
/// border ring between that rounded rect and the one inset by 2 (radius 6).
void glb_scene_rect_in(int i, unsigned seed, int w, int h, float out[12]);
/// The same generator with another largest size (GLB_SCENE_MIN_SIZE...max_size, for experiments:
/// the canonical scene is max_size = GLB_SCENE_MAX_SIZE). Words used by rect i: see GLBaseline.c.
void glb_scene_rect_ex(int i, unsigned seed, int w, int h, int max_size, float out[12]);
/// Rect i of the scene over the canonical 1920 x 1080 canvas.
void glb_scene_rect(int i, unsigned seed, float out[12]);
/// The raw generator word k (0...7) of rect i: documented so other languages can reproduce it.
unsigned glb_scene_word(int i, int k, unsigned seed);

// ---- The GL baseline ----------------------------------------------------------------------
/// Creates the headless EGL display and GL 3.3 core context, makes it current on the calling
/// thread, compiles the program. Idempotent (a later call makes the context current again). Returns 0 on success, else -1 with a message in err.
int glb_init(char *err, int errlen);
/// GL_RENDERER / GL_VERSION of the context (after glb_init), for the report.
const char *glb_renderer(void);
const char *glb_version(void);
/// The EGL platform glb_init used: "device" or "surfaceless".
const char *glb_platform(void);
/// Draws the first n scene rects (seed) into a w x h RGBA8 FBO, `frames` timed frames after one
/// warm-up frame. Each frame: clear to transparent, ONE instanced draw, glFinish. Instance data
/// is uploaded once, before timing. Returns the median ms per frame, or a negative value on error.
double glb_rects_ms(int n, int w, int h, int frames, unsigned seed);
/// glb_rects_ms over the scene variant of glb_scene_rect_ex.
double glb_rects_ms_ex(int n, int w, int h, int frames, unsigned seed, int max_size);
/// The particle floor: n turned, tinted quads of one side x side white texture (linear
/// filtering, each grown by 0.75 px and antialiased as the engine's particles are) at hashed
/// places over a w x h FBO, instances uploaded and one instanced draw per frame, premultiplied
/// source-over; the median ms per frame of `frames` timed frames, or a negative value on error.
double glb_quads_ms(int n, int w, int h, int frames, int side);
/// Draws `n` quads of the particle floor's program once into a cleared w x h FBO (`instances`:
/// 8 floats each, centre x, y in pixels, angle in radians, side in pixels, premultiplied tint
/// r, g, b, a) over a side x side white texture, for comparison with the engine's pixels
/// (glb_read_rgba). Returns 0 on success.
int glb_quads_draw(const float *instances, int n, int w, int h, int side);
/// The replicator floor: a grid of cols x rows rounded rects (cell x, y, width, height = cell[0..3]
/// in the first copy, copy (c, r) moved by (c * dx, r * dy)), corner radius `radius`, border
/// `border` inside the bounds, fill and border colours (straight alpha, fill[4], stroke[4]) tinted
/// per copy, drawn over a clear of `background` (straight alpha) into a w x h FBO: what the
/// engine's two nested CAReplicatorLayers of one bordered rounded box draw. One instanced SDF
/// draw (the rect program), premultiplied source-over, glFinish per frame; instance data uploaded
/// once. Returns the median ms per frame, or a negative value on error.
double glb_grid_ms(int cols, int rows, float dx, float dy, const float cell[4], float radius, float border,
                   const float fill[4], const float stroke[4], const float background[4], int w, int h, int frames);
/// Reads back the FBO of the last glb_rects_ms, glb_grid_ms or glb_quads_draw (premultiplied RGBA8, rows top-down, w*h*4 bytes
/// into rgba, w and h must match). Returns 0 on success.
int glb_read_rgba(unsigned char *rgba, int w, int h);

// ---- GPU time (GL_TIME_ELAPSED) --------------------------------------------------------------
/// Starts a GL_TIME_ELAPSED query on whatever context is current (the engine's too: the
/// benchmark times its frames on the GPU as well as on the clock). Returns 0 when started, -1
/// when the context counts no GPU time (0 counter bits) or no context is current.
int glb_gpu_timer_begin(void);
/// Ends the query glb_gpu_timer_begin started on the same context and waits for its result:
/// milliseconds of GPU time, or a negative value when none was started.
double glb_gpu_timer_end_ms(void);
/// The median GPU ms per frame (GL_TIME_ELAPSED) of the last glb_rects_ms / glb_quads_ms /
/// glb_grid_ms, or a negative value when the driver counts no GPU time.
double glb_last_gpu_ms(void);

#ifdef __cplusplus
}
#endif
#endif
