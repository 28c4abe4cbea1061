// libFuzzer target: PNG decoding of arbitrary bytes through libpng with the project's chunk and
// decompression limits. A thrown `CGImagePNGError` is the expected answer to most inputs.
import CFuzzDriver
import CoreGraphics
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    _ = try? CGImage.decodePNG(data)
    return 0
}

// libFuzzer's own `main` runs when the linker keeps it (see README.md); otherwise this one does.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
