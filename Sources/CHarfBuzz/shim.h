// HarfBuzz for Swift (CoreText): shaping with HarfBuzz's own OpenType functions (hb-ot), so
// advances are the ones `hb-shape` prints; FreeType is not involved in shaping.
#include <hb.h>
#include <hb-ot.h>
