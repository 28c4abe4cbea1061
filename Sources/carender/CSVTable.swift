import Foundation

/// A CSV file as RFC 4180 defines it: comma-separated fields, rows ended by CRLF or LF,
/// fields in double quotes may hold commas, line breaks and `""` (one quote). The first row
/// names the columns. A UTF-8 byte-order mark is skipped; blank lines are ignored.
struct CSVTable: Equatable {
    var header: [String]
    var rows: [[String]]

    init(text: String) throws {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false, wasQuoted = false
        var chars = Array(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)[...]
        var line = 1
        func endRecord() {
            record.append(field)
            if !(record.count == 1 && record[0].isEmpty && !wasQuoted) { records.append(record) }
            record = []; field = ""; wasQuoted = false
        }
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { chars.removeFirst(); field.append("\"") } else { quoted = false }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty, !wasQuoted else { throw CLIError("CSV line \(line): a quote inside an unquoted field (quote the whole field and double the quote)") }
                quoted = true; wasQuoted = true
            case ",": record.append(field); field = ""; wasQuoted = false
            case "\n", "\r\n", "\r": endRecord(); line += 1
            default:
                guard !wasQuoted else { throw CLIError("CSV line \(line): text after a closing quote") }
                field.append(c)
            }
        }
        if quoted { throw CLIError("CSV: a quoted field is not closed by the end of the file") }
        if !field.isEmpty || !record.isEmpty || wasQuoted { endRecord() }
        guard let first = records.first else { throw CLIError("CSV: no header row") }
        header = first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard Set(header).count == header.count, !header.contains("") else { throw CLIError("CSV: the header row needs distinct, non-empty column names") }
        rows = Array(records.dropFirst())
        for (i, r) in rows.enumerated() where r.count != header.count {
            throw CLIError("CSV row \(i + 1): \(r.count) fields for \(header.count) columns")
        }
    }

    init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("--batch \(path): cannot be read") }
        guard data.count <= 64 << 20 else { throw CLIError("--batch \(path): more than 64 MiB") }
        do { try self.init(text: String(decoding: data, as: UTF8.self)) } catch let e as CLIError {
            throw CLIError("--batch \(path): \(e.message)")
        }
    }
}
