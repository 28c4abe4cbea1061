import Foundation
import Testing

/// Documents the tests send.
enum Documents {
    /// 20×10 points: the left half #1e2230, the right half (a sublayer) #f26b52.
    static let scene = Array("""
    {"format": "ca-scene", "version": 1, "size": [20, 10], "duration": 2,
     "root": {"frame": [0, 0, 20, 10], "backgroundColor": "#1e2230",
       "sublayers": [{"name": "card", "frame": [10, 0, 10, 10], "backgroundColor": "#f26b52"}]}}
    """.utf8)

    /// A scene whose JSON breaks on line 3, column 13 (the second comma).
    static let malformed = Array("{\"format\": \"ca-scene\", \"version\": 1,\n \"size\": [20, 10],\n \"root\": {},,\n}".utf8)

    /// 10×10 pixels of #00ff00.
    static let svg = Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#00ff00"/></svg>"##.utf8)

    /// CarenderLottieTests' composition: at time 0.5 in 200×100 a red square is centred at (100, 50).
    static let lottie = Array(#"""
    {"v":"5.7.0","fr":10,"ip":10,"op":30,"w":100,"h":100,"layers":[
     {"ty":4,"ind":1,"ip":0,"op":30,"st":0,
      "ks":{"p":{"a":1,"k":[{"t":10,"s":[20,50],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":20,"s":[80,50]}]}},
      "shapes":[{"ty":"rc","p":{"k":[0,0]},"s":{"k":[20,20]},"r":{"k":0}},{"ty":"fl","c":{"k":[1,0,0,1]},"o":{"k":100}}]}]}
    """#.utf8)

    /// A 640×360 scene of 600 s: frames=0..<6000 at 30 fps takes minutes to render and encode.
    static let long = Array("""
    {"format": "ca-scene", "version": 1, "size": [640, 360], "duration": 600,
     "root": {"frame": [0, 0, 640, 360], "backgroundColor": "#203040",
       "sublayers": [{"name": "card", "frame": [10, 10, 300, 200], "backgroundColor": "#f26b52", "cornerRadius": 20}]}}
    """.utf8)
}

func pixel(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.rgba8Bytes[i..<i + 4])
}

/// `carender serve` run as a real process (issue 25, docs/CARENDER.md "Render service"):
/// documents in, images out, and each limit answered with its status.
@Suite(.serialized) struct ServiceRenderTests {
    @Test func scenePNGRoundTripsWithItsPixels() throws {
        let server = try ServiceProcess(["--slots", "1"])
        let r = try server.request("/render?format=png&time=0.5", body: Documents.scene, headers: ["Content-Type": "application/json"])
        #expect(r.status == 200, "\(r.text)")
        #expect(r.headers["content-type"] == "image/png")
        let image = try #require(CGImage(pngData: Data(r.body)))
        #expect(image.width == 20)
        #expect(image.height == 10)
        #expect(pixel(image, 5, 5) == [0x1e, 0x22, 0x30, 255])
        #expect(pixel(image, 15, 5) == [0xf2, 0x6b, 0x52, 255])
        // scale=2 doubles the pixels; set= changes the card's colour (carender's --set).
        let r2 = try server.request("/render?scale=2&set=card.backgroundColor=%2300ff00", body: Documents.scene)
        #expect(r2.status == 200, "\(r2.text)")
        let image2 = try #require(CGImage(pngData: Data(r2.body)))
        #expect(image2.width == 40)
        #expect(image2.height == 20)
        #expect(pixel(image2, 30, 10) == [0, 255, 0, 255])
        #expect(pixel(image2, 10, 10) == [0x1e, 0x22, 0x30, 255])
    }

    @Test func svgAndLottieAreAccepted() throws {
        let server = try ServiceProcess(["--slots", "1"])
        let svg = try server.request("/render", body: Documents.svg, headers: ["Content-Type": "image/svg+xml"])
        #expect(svg.status == 200, "\(svg.text)")
        let s = try #require(CGImage(pngData: Data(svg.body)))
        #expect(s.width == 10)
        #expect(s.height == 10)
        #expect(pixel(s, 5, 5) == [0, 255, 0, 255])
        // Sniffed (no Content-Type): `<` is SVG.
        #expect(try server.request("/render", body: Documents.svg).status == 200)
        let lottie = try server.request("/render?time=0.5&size=200x100", body: Documents.lottie, headers: ["Content-Type": "application/json"])
        #expect(lottie.status == 200, "\(lottie.text)")
        let l = try #require(CGImage(pngData: Data(lottie.body)))
        #expect(l.width == 200)
        #expect(l.height == 100)
        #expect(pixel(l, 100, 50) == [255, 0, 0, 255])
        #expect(pixel(l, 85, 50)[3] == 0)
    }

    @Test func jpegAndWebPCarryTheirContentTypes() throws {
        let server = try ServiceProcess(["--slots", "1"])
        let jpeg = try server.request("/render?format=jpg&quality=80", body: Documents.scene)
        #expect(jpeg.status == 200, "\(jpeg.text)")
        #expect(jpeg.headers["content-type"] == "image/jpeg")
        #expect(jpeg.body.starts(with: [0xFF, 0xD8, 0xFF]))
        let webp = try server.request("/render?format=webp", body: Documents.scene)
        #expect(webp.status == 200, "\(webp.text)")
        #expect(webp.headers["content-type"] == "image/webp")
        #expect(Array(webp.body[8..<12]) == Array("WEBP".utf8))
    }

    @Test func badInputIsA4xxWithTheReason() throws {
        let server = try ServiceProcess(["--slots", "1", "--max-body", "1KB"])
        // 413: larger than --max-body.
        let big = try server.request("/render", body: Documents.scene + [UInt8](repeating: 0x20, count: 4096))
        #expect(big.status == 413)
        #expect(big.text.contains("1024 bytes"))
        // 400 with validate's LINE:COLUMN: error: message.
        let bad = try server.request("/render", body: Documents.malformed)
        #expect(bad.status == 400)
        #expect(bad.text.hasPrefix("3:13: error: "), "\(bad.text)")
        // 400: an unknown format, an unknown parameter, carender's own usage errors.
        let format = try server.request("/render?format=bmp", body: Documents.scene)
        #expect(format.status == 400)
        #expect(format.text.contains("format=bmp: unknown format"))
        #expect(try server.request("/render?tmie=1", body: Documents.scene).status == 400)
        let time = try server.request("/render?time=-1", body: Documents.scene)
        #expect(time.status == 400)
        #expect(time.text.contains("--time"), "\(time.text)")
        #expect(try server.request("/render?set=nosuchlayer.opacity=1", body: Documents.scene).status == 400)
        #expect(try server.request("/render", body: []).status == 400)
        // Nothing of these requests is left in the server's temporary folder.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: server.temporaryRoot.path)) ?? []).isEmpty)
        #expect(server.stop() == 0)
    }

    @Test func healthAndMetrics() throws {
        let server = try ServiceProcess(["--slots", "3", "--max-queue", "7"])
        let health = try http("GET", port: server.port, "/healthz")
        #expect(health.status == 200)
        #expect(health.headers["content-type"] == "application/json")
        let h = try server.health()
        #expect(h["status"] as? String == "ok")
        #expect(h["slots"] as? Int == 3)
        #expect(h["maxQueue"] as? Int == 7)
        #expect(h["running"] as? Int == 0)
        #expect((h["rssBytes"] as? Int ?? 0) > 0)
        #expect(try server.request("/render", body: Documents.scene).status == 200)
        #expect(try server.request("/render?format=bmp", body: Documents.scene).status == 400)
        let m = try http("GET", port: server.port, "/metrics")
        #expect(m.status == 200)
        #expect(m.headers["content-type"]?.hasPrefix("text/plain") == true)
        for line in ["carender_serve_requests_total{status=\"200\"} 1", "carender_serve_requests_total{status=\"400\"} 1",
                     "carender_serve_render_seconds_count 1", "carender_serve_queue_depth 0", "carender_serve_renders_in_flight 0"] {
            #expect(m.text.contains(line), "\(line) in \(m.text)")
        }
        #expect(m.text.contains("carender_serve_response_bytes_total"))
        #expect(!m.text.contains("carender_serve_response_bytes_total 0"))
        // One log line per request, with its fields.
        #expect(server.log.contains("request bytes="))
        #expect(server.log.contains("status=400"))
    }

    @Test func jsonLogsAreOneObjectPerLine() throws {
        let server = try ServiceProcess(["--log-format", "json"])
        #expect(try server.request("/render", body: Documents.scene).status == 200)
        #expect(server.stop() == 0)
        let lines = server.log.split(separator: "\n").filter { $0.contains("\"request\"") }
        #expect(lines.count == 1, "\(server.log)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["status"] as? Int == 200)
        #expect(object["kind"] as? String == "scene")
        #expect(object["format"] as? String == "png")
        #expect((object["bytes"] as? Int ?? 0) > 0)
        #expect(object["ms"] is Int)
    }
}
