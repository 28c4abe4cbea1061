// libpng for Swift. Only the simplified API (png_image_*) may be used: the classic API
// reports errors by longjmp, which Swift frames cannot survive.
#include <png.h>
