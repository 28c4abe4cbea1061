// libFuzzer target: scene-file loading of arbitrary bytes (the JSON reader, every value reader,
// the limits and budgets). A `SceneLoadError` listing problems is the expected answer to most
// inputs. Image paths resolve in an empty temporary folder, so none loads.
import CAScene
import CFuzzDriver
import Foundation

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-scene-\(getpid())")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
nonisolated(unsafe) let base = folder

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, size in
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    _ = try? SceneFile.load(data: data, baseDirectory: base)
    return 0
})
