// OpenGL 3.3–4.5 core entry points, exported by glvnd's libOpenGL.so.0 (no loader needed).
// The prototype macro must be defined here: defines from cSettings never reach the Swift importer.
#ifndef CA_CGL_SHIM_H
#define CA_CGL_SHIM_H
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#endif
