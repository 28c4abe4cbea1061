// libFuzzer target: PNG decoding of arbitrary bytes through libpng with the project's chunk and
// decompression limits. A thrown `CGImagePNGError` is the expected answer to most inputs.
import CFuzzDriver
import CoreGraphics
import Foundation

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, size in
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    _ = try? CGImage.decodePNG(data)
    return 0
})
