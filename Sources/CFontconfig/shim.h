// fontconfig for Swift (CoreText): family lookup, per-character fallback, app font files.
#include <fontconfig/fontconfig.h>
