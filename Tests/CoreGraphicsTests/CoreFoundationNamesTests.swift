import Testing
import Foundation

/// Apple code passes Core Foundation types at Core Graphics calls; the casts compile unchanged.
@Suite struct CoreFoundationNamesTests {
    @Test("[colors] as CFArray, data as CFData, string as CFString, dict as CFDictionary, NSMutableData as CFMutableData")
    func casts() {
        let colors = [CGColor.black, CGColor.white] as CFArray
        #expect(colors.count == 2)
        let data = Data([1, 2, 3]) as CFData
        #expect(data.count == 3)
        let name = "Helvetica" as CFString
        #expect(name == "Helvetica")
        let options: [String: Any] = ["key": 1]
        let dict = options as CFDictionary
        #expect(dict.count == 1)
        let mutable = NSMutableData() as CFMutableData
        mutable.append(Data([9]))
        #expect(mutable.length == 1)
        let ctx = rgbaContext(1, 1)
        ctx.beginTransparencyLayer(auxiliaryInfo: options as CFDictionary)
        ctx.endTransparencyLayer()
    }
}
