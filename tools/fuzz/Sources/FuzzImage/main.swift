// libFuzzer target: image contents of arbitrary bytes through ImageIO, as a scene file's or an
// SVG's image is read: `CGImageSourceCreateWithData`, the frame count, then every frame (up to
// eight) decoded (PNG through libpng, JPEG through libjpeg-turbo, WebP through libwebp, GIF
// through giflib, each with the project's limits). nil is a normal answer.
import CFuzzDriver
import CoreGraphics
import Foundation
import ImageIO

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    guard let source = CGImageSourceCreateWithData(data as CFData, nil) else { return 0 }
    let count = CGImageSourceGetCount(source)
    for i in 0..<min(count, 8) {
        _ = CGImageSourceCreateImageAtIndex(source, i, nil)
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
