// Cairo's image backend, for the differential test of CGContext only (issue 19: "a differential
// test against Cairo (test-only dependency, libcairo2-dev)"). No product links it.
#include <cairo.h>
