// The GLSL sources in Shaders/, embedded at build time with C23 #embed so the binary never
// looks for files at run time (Bundle.module breaks when a binary moves on Linux).
#ifndef CA_CSHADERS_H
#define CA_CSHADERS_H
/// NUL-terminated source of the shader file `name` (e.g. "box.vert"), or 0 if unknown.
const char *ca_shader_source(const char *name);
#endif
