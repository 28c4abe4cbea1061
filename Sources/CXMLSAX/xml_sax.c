#include "xml_sax.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

// What the trampolines need, reached through ctxt->_private: libxml2 passes the parser context
// itself as the callbacks' user data (its default DTD and entity handlers, which are kept,
// need the context), and copies _private into the contexts it makes for entity content.
typedef struct reader {
    const ca_xml_handler *handler;
    void *context;
    int stopped;
} reader;

static reader *reader_of(void *ctx) {
    xmlParserCtxtPtr c = (xmlParserCtxtPtr)ctx;
    return c ? (reader *)c->_private : NULL;
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar **atts) {
    reader *r = reader_of(ctx);
    if (!r || r->stopped) return;
    if (r->handler->start_element(r->context, (const char *)name, (const char *const *)atts) != 0) {
        r->stopped = 1;
        xmlStopParser((xmlParserCtxtPtr)ctx);
    }
}

static void on_end(void *ctx, const xmlChar *name) {
    reader *r = reader_of(ctx);
    if (!r || r->stopped) return;
    r->handler->end_element(r->context, (const char *)name);
}

static void on_characters(void *ctx, const xmlChar *ch, int len) {
    reader *r = reader_of(ctx);
    if (!r || r->stopped || len <= 0) return;
    r->handler->characters(r->context, (const char *)ch, len);
}

static void on_cdata(void *ctx, const xmlChar *ch, int len) {
    reader *r = reader_of(ctx);
    if (!r || r->stopped || len <= 0) return;
    r->handler->cdata(r->context, (const char *)ch, len);
}

// Never load an external entity or subset, whatever the entity declares.
static xmlParserInputPtr no_entity(void *ctx, const xmlChar *publicId, const xmlChar *systemId) {
    (void)ctx; (void)publicId; (void)systemId;
    return NULL;
}

// Errors are collected from the context after the parse (ctxt->lastError); nothing is printed.
static void quiet(void *ctx, const char *message, ...) { (void)ctx; (void)message; }

int ca_xml_parse(const char *bytes, size_t length, const ca_xml_handler *handler, void *context,
                 ca_xml_status *status) {
    memset(status, 0, sizeof *status);
    if (length > INT_MAX) {
        status->code = -1;
        snprintf(status->message, sizeof status->message, "document larger than 2 GiB");
        return 1;
    }
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    xmlSAXVersion(&sax, 2);          // libxml2's default DTD and entity handlers (entity lookup)
    // SAX1 element callbacks: qualified names and xmlns attributes as written, which is what
    // CASVG reads (measured with libxml2 2.9.14: a handler still marked SAX2 gets the Ns
    // callbacks only, so the mark is set back to SAX1's).
    sax.initialized = 1;
    sax.startElementNs = NULL;
    sax.endElementNs = NULL;
    sax.serror = NULL;
    sax.startElement = on_start;
    sax.endElement = on_end;
    sax.characters = on_characters;
    sax.ignorableWhitespace = on_characters;
    sax.cdataBlock = on_cdata;
    sax.reference = NULL;
    sax.comment = NULL;
    sax.processingInstruction = NULL;
    sax.resolveEntity = no_entity;
    sax.externalSubset = NULL;
    sax.warning = quiet;
    sax.error = quiet;
    sax.fatalError = quiet;

    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    if (!ctxt) {
        status->code = -1;
        snprintf(status->message, sizeof status->message, "libxml2 could not make a parser");
        return 1;
    }
    reader r = { handler, context, 0 };
    ctxt->_private = &r;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NOENT | XML_PARSE_NONET);

    // One chunk: the whole document is in memory already.
    xmlParseChunk(ctxt, bytes, (int)length, 1);

    status->well_formed = ctxt->wellFormed ? 1 : 0;
    status->stopped = r.stopped;
    xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
    if (e && e->code != XML_ERR_OK && e->level >= XML_ERR_ERROR) {
        status->code = e->code;
        status->line = e->line;
        status->column = e->int2;
        if (e->message) {
            snprintf(status->message, sizeof status->message, "%s", e->message);
            size_t n = strlen(status->message);
            while (n > 0 && (status->message[n - 1] == '\n' || status->message[n - 1] == '\r')) status->message[--n] = 0;
        }
    } else if (ctxt->input) {
        status->line = ctxt->input->line;
        status->column = ctxt->input->col;
    }
    if (ctxt->myDoc) { xmlFreeDoc(ctxt->myDoc); ctxt->myDoc = NULL; }
    xmlFreeParserCtxt(ctxt);
    return (status->well_formed && !status->stopped) ? 0 : 1;
}
