import Foundation

/// A small HTTP/1.1 client over a blocking socket, for tests that need what a library client
/// hides: closing the connection in the middle of a request, exact status codes and headers.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct HTTPConnection {
    let fd: Int32

    init(port: Int, timeoutSeconds: Int = 120) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { _ = Glibc.close(fd); throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
    }

    func send(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) throws {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPIPE) }
            sent += n
        }
    }

    /// Reads to the end of the connection and parses the reply.
    func receive() throws -> HTTPReply {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { break }
            if n < 0 { if errno == EINTR { continue }; if data.isEmpty { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }; break }
            data += buffer[0..<n]
        }
        guard let split = data.firstRange(of: Array("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2, let status = Int(statusLine.split(separator: " ")[1]) else { throw POSIXError(.EBADMSG) }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(data[split.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init), body.count > length { body = Array(body[0..<length]) }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    func close() { _ = Foundation.close(fd) }
}

/// One request on a new connection, answered in full.
func http(_ method: String, port: Int, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> HTTPReply {
    let c = try HTTPConnection(port: port)
    defer { c.close() }
    try c.send(method: method, path: path, headers: headers, body: body)
    return try c.receive()
}
