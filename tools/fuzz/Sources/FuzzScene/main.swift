// libFuzzer target: scene-file loading of arbitrary bytes (the JSON reader, every value reader,
// the limits and budgets). A `SceneLoadError` listing problems is the expected answer to most
// inputs. Image paths resolve in an empty temporary folder, so none loads.
import CAScene
import CFuzzDriver
import Foundation

let base: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-scene-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    _ = try? SceneFile.load(data: data, baseDirectory: base)
    return 0
}

// libFuzzer's own `main` runs when the linker keeps it (see README.md); otherwise this one does.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
