import Foundation
import Logging

/// The service's log lines on standard error, one per record: `text` (`TIME LEVEL message
/// key=value …`) or `json` (one object per line: `time`, `level`, `message` and the metadata as
/// members), for log collectors. Installed by `carender serve --log-format`.
package struct ServiceLogHandler: LogHandler {
    package enum Format: String, Sendable, CaseIterable { case text, json }

    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    let format: Format
    let label: String

    package init(label: String, format: Format) {
        self.label = label
        self.format = format
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let time = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let line: String
        switch format {
        case .text:
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = "\(time) \(event.level) \(event.message)\(fields.isEmpty ? "" : " " + fields)\n"
        case .json:
            var object: [String: Any] = ["time": time, "level": "\(event.level)", "message": "\(event.message)"]
            for (k, v) in all { object[k] = Self.json(v) }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            line = String(decoding: data, as: UTF8.self) + "\n"
        }
        // One write(2) per line: lines from concurrent requests do not interleave.
        line.utf8CString.withUnsafeBufferPointer { p in _ = write(STDERR_FILENO, p.baseAddress, p.count - 1) }
    }

    /// Numbers stay numbers in JSON (`status`, `ms`, `bytes`), the rest are strings.
    static func json(_ v: Logger.MetadataValue) -> Any {
        switch v {
        case .string(let s): return s
        case .stringConvertible(let c):
            if let i = c as? any BinaryInteger { return Int(i) }
            if let d = c as? Double { return d }
            return "\(c)"
        case .array(let a): return a.map(json)
        case .dictionary(let d): return d.mapValues(json)
        }
    }
}
