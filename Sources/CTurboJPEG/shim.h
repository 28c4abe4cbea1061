// libjpeg-turbo's TurboJPEG API for Swift (ImageIO's JPEG decoder and encoder). Only the
// TurboJPEG API is used: it catches libjpeg's longjmp-based errors internally and reports
// them by return value (tjGetErrorStr2), which Swift frames can survive; the classic libjpeg
// API's error_exit cannot be caught from Swift.
#include <stddef.h>
#include <turbojpeg.h>
