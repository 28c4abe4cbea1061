// libwebp for Swift (ImageIO's WebP decoder and encoder): the still-image decoder (decode.h) and the
// animation decoder of libwebpdemux (demux.h), which composes animated frames on its canvas.
// Both report errors by return value.
#include <webp/decode.h>
#include <webp/demux.h>
// The still-image encoder (encode.h), for CGImageDestination's WebP output.
#include <webp/encode.h>
