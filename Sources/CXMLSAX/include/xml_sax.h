// A streaming XML reader on libxml2's SAX parser, behind a header that names no libxml2 type
// (see Sources/CLibXML2/shim.h for why). CASVG reads SVG with it instead of Foundation's
// XMLParser, whose Linux glue crashes on some markup and keeps a few hundred bytes per parse.
#ifndef CA_XML_SAX_H
#define CA_XML_SAX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Callbacks; `context` is the pointer given to ca_xml_parse. Element names are qualified
// (`svg:rect`); `attributes` is a NULL-terminated list of name, value pairs (namespace
// declarations included, as plain attributes). A nonzero return from start_element stops the
// parse (limits); text arrives in pieces. Internal entities arrive expanded.
typedef struct ca_xml_handler {
    int (*start_element)(void *context, const char *name, const char *const *attributes);
    void (*end_element)(void *context, const char *name);
    void (*characters)(void *context, const char *text, int length);
    void (*cdata)(void *context, const char *text, int length);
} ca_xml_handler;

typedef struct ca_xml_status {
    int well_formed;     // 1 when the document parsed to its end without a fatal error
    int stopped;         // 1 when a callback stopped it
    int code;            // libxml2's error code of the first fatal error, 0 if none
    int line, column;    // where that error was raised (1-based), or where the parse ended
    char message[256];   // its message, without the trailing newline
} ca_xml_status;

// Parses `length` bytes (UTF-8 expected). External entities and DTDs are never loaded: the
// caller must not declare external entities it does not want looked up (CASVG rewrites them
// to empty internal ones before calling), no external subset is read (no DTDLOAD, and the
// external-subset callback is off), network access is refused (NONET). libxml2's own limits on
// names, text nodes and entity amplification stay on (no XML_PARSE_HUGE). Returns 0 when the
// document is well formed and was not stopped.
int ca_xml_parse(const char *bytes, size_t length, const ca_xml_handler *handler, void *context,
                 ca_xml_status *status);

#ifdef __cplusplus
}
#endif
#endif
