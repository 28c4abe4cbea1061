// libFuzzer target: SVG import of arbitrary bytes. Anything but a crash, a hang or runaway memory
// is fine: a thrown `SVGError` or a document with issues. Limits are the defaults, the ones a
// server uses.
import CASVG
import CFuzzDriver
import Foundation

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, size in
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    autoreleasepool { _ = try? SVGDocument(data: data) }
    return 0
})
