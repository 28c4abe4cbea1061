// Writing images, as Apple's ImageIO `CGImageDestination`
// (https://developer.apple.com/documentation/imageio/cgimagedestination): PNG (libpng, through
// CoreGraphics' encoder), JPEG (libjpeg-turbo) and, beyond Apple's, WebP (libwebp). See
// docs/IMAGEIO.md.
import CoreGraphics
import Foundation

/// An image destination: where `CGImageDestinationFinalize` writes the image added to it.
/// PNG and JPEG hold one image each: a second `CGImageDestinationAddImage` warns and is ignored.
public final class CGImageDestination: Sendable {
    enum Target {
        case url(URL)
        case data(NSMutableData)
    }

    /// Unchecked: `NSMutableData` is not `Sendable`; the caller's data object is only written in
    /// `finalize`, under the lock, as Apple's destination writes it.
    private struct State: @unchecked Sendable {
        var target: Target
        var image: CGImage?
        var quality: Double?
        var finalized = false
    }

    let format: ImageFormat
    private let state: Locked<State>

    init(format: ImageFormat, target: Target, options: CFDictionary?) {
        self.format = format
        state = Locked(State(target: target))
        setProperties(options)
    }

    func setProperties(_ properties: CFDictionary?) {
        ImageIOOptions.checkDestination(properties)
        guard let value = properties?[kCGImageDestinationLossyCompressionQuality] else { return }
        guard let q = ImageIOOptions.double(value), !q.isNaN else {
            CGDiagnostics.warnOnce("ImageIO: kCGImageDestinationLossyCompressionQuality \(value) is not a number; the default 0.75 is used")
            return
        }
        state.withLock { $0.quality = q }
    }

    func add(_ image: CGImage, _ properties: CFDictionary?) {
        setProperties(properties)
        let added = state.withLock { s -> Bool in
            guard s.image == nil, !s.finalized else { return false }
            s.image = image
            return true
        }
        if !added {
            CGDiagnostics.warnOnce("ImageIO: CGImageDestinationAddImage: a \(format.name) destination holds one image; later images are ignored")
        }
    }

    /// libjpeg's quality from ImageIO's 0…1 (× 100, rounded, clamped to 1…100; default 75).
    static func jpegQuality(_ q: Double?) -> Int32 {
        guard let q else { return 75 }
        return Int32(min(max(Int.clamped((q * 100).rounded()), 1), 100))
    }

    func finalize() -> Bool {
        state.withLock { s -> Bool in
            guard !s.finalized else {
                CGDiagnostics.warnOnce("ImageIO: CGImageDestinationFinalize called twice; the second call does nothing")
                return false
            }
            s.finalized = true
            guard let image = s.image else {
                CGDiagnostics.warnOnce("ImageIO: CGImageDestinationFinalize: no image was added")
                return false
            }
            let encoded: Data
            switch format {
            case .png:
                do throws(CGImagePNGError) {
                    encoded = try image.encodePNG()
                } catch {
                    CGDiagnostics.warnOnce("ImageIO: PNG encoding failed: \(error.message)")
                    return false
                }
            case .jpeg:
                switch JPEGCodec.encode(image, quality: Self.jpegQuality(s.quality)) {
                case .success(let d): encoded = d
                case .failure(let f):
                    CGDiagnostics.warnOnce("ImageIO: \(f.message)")
                    return false
                }
            case .webP:
                switch WebPCodec.encode(image, quality: s.quality) {
                case .success(let d): encoded = d
                case .failure(let f):
                    CGDiagnostics.warnOnce("ImageIO: \(f.message)")
                    return false
                }
            case .gif:
                return false  // refused at creation
            }
            switch s.target {
            case .data(let d):
                d.setData(encoded)
                return true
            case .url(let url):
                do {
                    try encoded.write(to: url, options: .atomic)
                    return true
                } catch {
                    CGDiagnostics.warnOnce("ImageIO: \(url.path): cannot be written (\(error.localizedDescription))")
                    return false
                }
            }
        }
    }

    static func format(for type: CFString) -> ImageFormat? {
        switch type {
        case ImageIOTypeIdentifier.png: return .png
        case ImageIOTypeIdentifier.jpeg: return .jpeg
        // Extension beyond Apple's API (Apple's ImageIO does not write WebP): WebPEncoder.swift.
        case ImageIOTypeIdentifier.webP: return .webP
        default:
            CGDiagnostics.warnOnce("ImageIO: writing \(type) is not supported (only public.png, public.jpeg and org.webmproject.webp)")
            return nil
        }
    }
}

/// A destination writing one image of `type` ("public.png" or "public.jpeg") to the file at
/// `url` when finalized. Nil for another type (with a warning) or a `count` below 1.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int,
                                            _ options: CFDictionary?) -> CGImageDestination? {
    guard count >= 1, let format = CGImageDestination.format(for: type) else { return nil }
    return CGImageDestination(format: format, target: .url(url), options: options)
}

/// A destination that replaces the contents of `data` with the encoded image when finalized.
/// Nil for a type other than "public.png" or "public.jpeg" (with a warning) or a `count` below 1.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int,
                                             _ options: CFDictionary?) -> CGImageDestination? {
    guard count >= 1, let format = CGImageDestination.format(for: type) else { return nil }
    return CGImageDestination(format: format, target: .data(data), options: options)
}

/// Adds the image to write; `properties` may carry `kCGImageDestinationLossyCompressionQuality`
/// (other keys warn once and are ignored). PNG and JPEG hold one image.
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    idst.add(image, properties)
}

/// Destination-wide properties (`kCGImageDestinationLossyCompressionQuality`).
public func CGImageDestinationSetProperties(_ idst: CGImageDestination, _ properties: CFDictionary?) {
    idst.setProperties(properties)
}

/// Encodes and writes the image. False (with a warning) when no image was added, encoding
/// fails, the file cannot be written, or the destination was already finalized.
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    idst.finalize()
}

/// The type identifiers destinations write: PNG, JPEG and WebP (WebP beyond Apple's).
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray {
    [ImageIOTypeIdentifier.png, ImageIOTypeIdentifier.jpeg, ImageIOTypeIdentifier.webP]
}
