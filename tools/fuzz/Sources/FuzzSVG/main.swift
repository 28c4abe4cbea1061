// libFuzzer target: SVG import of arbitrary bytes. Anything but a crash, a hang or runaway memory
// is fine: a thrown `SVGError` or a document with issues. Limits are the defaults, the ones a
// server uses.
import CASVG
import CFuzzDriver
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    _ = try? SVGDocument(data: data)
    return 0
}

// libFuzzer's own `main` runs when the linker keeps it (see README.md); otherwise this one does.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
