// giflib for Swift (ImageIO's GIF decoder). Only the record-level decoding calls are used
// (DGifOpen with a read callback, DGifGetRecordType, DGifGetImageDesc, DGifGetLine,
// DGifGetExtension); they report errors by return value and GifFileType.Error.
#include <gif_lib.h>
