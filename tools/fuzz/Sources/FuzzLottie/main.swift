// libFuzzer target: Lottie import of arbitrary bytes, as a server does it: decode (JSON, or a
// dotLottie zip), then build the layer tree. A thrown error is a normal answer; a crash, a hang or
// runaway memory is a finding. Limits are the defaults.
import CALottie
import CFuzzDriver
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    if let animation = try? LottieAnimation(data: data) {
        _ = animation.makeLayer()
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
