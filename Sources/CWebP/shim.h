// libwebp for Swift (ImageIO's WebP decoder): the still-image decoder (decode.h) and the
// animation decoder of libwebpdemux (demux.h), which composes animated frames on its canvas.
// Both report errors by return value.
#include <webp/decode.h>
#include <webp/demux.h>
