import Foundation

/// Runs one render request as a `carender render` child process, in a folder of its own under
/// the service's temporary root: the document is written there, carender writes its output (and
/// a video's `.partial` file and ffmpeg's log, through `TMPDIR`) there, and the folder is removed
/// when the request ends, whatever way it ends. The rendering is carender's own code path, so
/// the service renders exactly what `carender render FILE -o OUT` would, with its checks.
package struct RenderRunner: Sendable {
    package var executable: String
    package var backend: String?
    package var temporaryRoot: URL

    package init(executable: String, backend: String?, temporaryRoot: URL) {
        self.executable = executable
        self.backend = backend
        self.temporaryRoot = temporaryRoot
    }

    /// What a finished render produced.
    package struct Output: Sendable {
        package var bytes: [UInt8]
    }

    /// Renders `document` (written as `fileName`) with `parameters`. Throws `ServiceError`: 400
    /// for what carender rejects as a usage error or an invalid document (with `validate`'s
    /// `line:column: error: message` lines) or `set` values, 500 for a render that failed
    /// otherwise, and
    /// `CancellationError` when the task was cancelled (the child is stopped first).
    package func render(document: [UInt8], fileName: String, parameters: RenderParameters, requestID: String) async throws -> Output {
        let dir = temporaryRoot.appendingPathComponent("request-\(requestID)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        let docURL = dir.appendingPathComponent(fileName)
        guard FileManager.default.createFile(atPath: docURL.path, contents: Data(document)) else {
            throw ServiceError(.internalServerError, "cannot write the document to \(dir.path)")
        }
        let out = dir.appendingPathComponent("output.\(parameters.format.fileExtension)")
        let status = try await run(parameters.arguments(document: docURL.path, output: out.path, backend: backend), in: dir)
        try Task.checkCancellation()
        switch status.code {
        case 0:
            guard let data = FileManager.default.contents(atPath: out.path) else {
                throw ServiceError(.internalServerError, "carender wrote no output")
            }
            return Output(bytes: [UInt8](data))
        case 2:
            throw ServiceError.badRequest(clean(status.stderr, document: docURL.path))
        case 1:
            // An invalid document, or a render that failed: validate tells which, with the
            // lines `carender validate` prints (file name left out).
            let problems = try await validationErrors(docURL, in: dir)
            if !problems.isEmpty { throw ServiceError.badRequest(problems.joined(separator: "\n")) }
            // A valid document that --set values made invalid is the client's too.
            if parameters.options.contains(where: { $0.hasPrefix("--set=") }), status.stderr.contains("with --set") {
                throw ServiceError.badRequest(clean(status.stderr, document: docURL.path))
            }
            throw ServiceError(.internalServerError, clean(status.stderr, document: docURL.path))
        default:
            throw ServiceError(.internalServerError, "the render ended with status \(status.code): \(clean(status.stderr, document: docURL.path))")
        }
    }

    /// `carender validate --quiet FILE`: its error lines, `LINE:COLUMN: error: message`.
    func validationErrors(_ doc: URL, in dir: URL) async throws -> [String] {
        let status = try await run(["validate", "--quiet", doc.path], in: dir, stdoutName: "validate.txt")
        let prefix = doc.path + ":"
        return status.stdout.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }.map {
            $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0
        }
    }

    struct Status { var code: Int32; var stdout: String; var stderr: String }

    func run(_ arguments: [String], in dir: URL, stdoutName: String = "stdout.txt") async throws -> Status {
        let outPath = dir.appendingPathComponent(stdoutName).path, errPath = dir.appendingPathComponent("stderr.txt").path
        var env = ProcessInfo.processInfo.environment
        env["TMPDIR"] = dir.path
        let process: RenderProcess
        do {
            process = try RenderProcess(executable: executable, arguments: arguments, environment: env, stdout: outPath, stderr: errPath)
        } catch {
            throw ServiceError(.internalServerError, "\(error)")
        }
        let code = await process.exitStatus()
        func text(_ p: String) -> String {
            guard let h = FileHandle(forReadingAtPath: p) else { return "" }
            defer { try? h.close() }
            return String(decoding: (try? h.read(upToCount: 64 << 10)) ?? Data(), as: UTF8.self)
        }
        return Status(code: code, stdout: text(outPath), stderr: text(errPath))
    }

    /// carender's messages for a client: without the `carender: ` prefix, the request folder's
    /// path replaced by `document`, progress lines left out.
    func clean(_ stderr: String, document: String) -> String {
        let lines = stderr.split(separator: "\n").map { line -> String in
            var s = String(line)
            if s.hasPrefix("carender: ") { s.removeFirst("carender: ".count) }
            return s.replacingOccurrences(of: document, with: "document")
        }
        let text = lines.filter { !$0.isEmpty }.joined(separator: "\n")
        return text.isEmpty ? "the render failed" : text
    }
}
