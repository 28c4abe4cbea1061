// GLFW 3.3 (Debian's libglfw3-dev) for the windowed preview. GLFW_INCLUDE_NONE keeps GLFW from
// including a GL header of its own: GL comes through the CGL shim. The define must be here:
// defines from cSettings never reach the Swift importer.
#ifndef CA_CGLFW_SHIM_H
#define CA_CGLFW_SHIM_H
#define GLFW_INCLUDE_NONE 1
#include <GLFW/glfw3.h>
#endif
