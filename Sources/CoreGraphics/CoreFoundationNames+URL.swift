// Core Foundation's URL name, which ImageIO's calls take (`CGImageSourceCreateWithURL(url as
// CFURL, nil)`). As with the other CF names (CoreFoundationNames.swift), swift-corelibs-
// foundation does not export it, so here it is an alias of the Swift type the cast starts from.

/// Core Foundation's `CFURL`: Foundation's `URL` (`url as CFURL` compiles unchanged).
public typealias CFURL = URL
