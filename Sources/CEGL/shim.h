// Headless EGL 1.5 with the device and surfaceless platforms. EGL_NO_X11 keeps Xlib types out.
#ifndef CA_CEGL_SHIM_H
#define CA_CEGL_SHIM_H
#define EGL_NO_X11 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>

// Function-pointer types from eglext.h import as optional C function types; these wrappers
// call extension entry points fetched with eglGetProcAddress without Swift casting them.
static inline EGLBoolean ca_eglQueryDevicesEXT(EGLint max, EGLDeviceEXT *devices, EGLint *num) {
    PFNEGLQUERYDEVICESEXTPROC f = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!f) return EGL_FALSE;
    return f(max, devices, num);
}
static inline const char *ca_eglQueryDeviceStringEXT(EGLDeviceEXT device, EGLint name) {
    PFNEGLQUERYDEVICESTRINGEXTPROC f = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (!f) return 0;
    return f(device, name);
}
#endif
