// libxml2, for its pkg-config flags only: Swift never imports this module (libxml2's headers
// pull in ICU's, which clash with Foundation's own ICU in one Clang module graph). CXMLSAX
// includes libxml2 in its .c file and exposes a header that names no libxml2 type.
#include <libxml/parser.h>
