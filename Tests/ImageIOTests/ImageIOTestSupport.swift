import Foundation

/// The premultiplied RGBA of one pixel as an array, for `#expect` comparisons.
func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image.pixel(x: x, y: y)
    return [p.r, p.g, p.b, p.a]
}

func fixture(_ name: String) -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return (try? Data(contentsOf: url)) ?? Data()
}

/// Encodes `image` through a data destination of `type`.
func encode(_ image: CGImage, _ type: CFString, _ properties: CFDictionary? = nil) -> Data? {
    let out = NSMutableData()
    guard let dst = CGImageDestinationCreateWithData(out, type, 1, nil) else { return nil }
    CGImageDestinationAddImage(dst, image, properties)
    guard CGImageDestinationFinalize(dst) else { return nil }
    return out as Data
}

/// A temporary file holding `data`, named `name`, removed by the caller.
func temporaryFile(_ name: String, _ data: Data) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imageio-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try data.write(to: url)
    return url
}
