// Embeds Shaders/*.glsl|vert|frag with C23 #embed; clang records them as dependencies, so
// editing a shader rebuilds this file. Add new shaders to the table below.
#include "CShaders.h"
#include <string.h>

static const char common_glsl[] = {
#embed "../../Shaders/common.glsl"
, 0 };
static const char box_vert[] = {
#embed "../../Shaders/box.vert"
, 0 };
static const char box_frag[] = {
#embed "../../Shaders/box.frag"
, 0 };
static const char image_vert[] = {
#embed "../../Shaders/image.vert"
, 0 };
static const char image_frag[] = {
#embed "../../Shaders/image.frag"
, 0 };
static const char particle_vert[] = {
#embed "../../Shaders/particle.vert"
, 0 };
static const char composite_vert[] = {
#embed "../../Shaders/composite.vert"
, 0 };
static const char composite_frag[] = {
#embed "../../Shaders/composite.frag"
, 0 };
static const char gradient_vert[] = {
#embed "../../Shaders/gradient.vert"
, 0 };
static const char gradient_frag[] = {
#embed "../../Shaders/gradient.frag"
, 0 };
static const char blur_vert[] = {
#embed "../../Shaders/blur.vert"
, 0 };
static const char blur_frag[] = {
#embed "../../Shaders/blur.frag"
, 0 };
static const char filter_frag[] = {
#embed "../../Shaders/filter.frag"
, 0 };

static const char shape_vert[] = {
#embed "../../Shaders/shape.vert"
, 0 };
static const char shape_frag[] = {
#embed "../../Shaders/shape.frag"
, 0 };

static const struct { const char *name; const char *source; } table[] = {
    { "common.glsl", common_glsl },
    { "box.vert", box_vert },
    { "box.frag", box_frag },
    { "image.vert", image_vert },
    { "particle.vert", particle_vert },
    { "image.frag", image_frag },
    { "composite.vert", composite_vert },
    { "composite.frag", composite_frag },
    { "gradient.vert", gradient_vert },
    { "gradient.frag", gradient_frag },
    { "blur.vert", blur_vert },
    { "blur.frag", blur_frag },
    { "filter.frag", filter_frag },
    { "shape.vert", shape_vert },
    { "shape.frag", shape_frag },
};

const char *ca_shader_source(const char *name) {
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) return table[i].source;
    return 0;
}
