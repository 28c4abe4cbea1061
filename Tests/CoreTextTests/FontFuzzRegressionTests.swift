import Testing
import Foundation
@testable import CoreText

/// Fonts the fuzzers found (issue 17, tools/fuzz): each loads or is refused, never traps. These
/// need no test fonts, so they run on every machine.
@Suite struct FontFuzzRegressionTests {
    /// Found by fuzz-font (issue 17) on 16 cores: a 2,601-byte TrueType file FreeType accepts
    /// with a descender of -32,768, whose negation overflowed `FT_Short` (a trap in
    /// `FontFace.init`). Metrics are now negated and subtracted as Double; the font loads or is nil.
    @Test("A font whose descender is -32768 loads without trapping")
    func descenderOfMinus32768DoesNotTrap() throws {
        let b64 = [
            "AAEAAAATAQAABAAwR0RFRgCXAJsAAA50AAAAOkdQT1MqbiSaAAAOsAAAATpHc1VClpuHrwD4DuwAAADMT1MvMjXHCgUAAAlY",
            "+/8AVmNtYXAESSTSAAAJsAAAALRjdnQgBpQC8QAADPwAAAAOZnBnbQ+0L6cAAApkAAACZWdhc3D//wADAAAObAAAAAhnbHlm",
            "9ToVmwAAATwAAAbyaGVhZA2KzXIAAAiMAAAANmhoZWEJmADZAAAJNAAAACRobXR4Q5QHyAAACMQAAABwbG9jYRYfFFcAAAhQ",
            "AAAAOm1heHABVwGEAAAIMQAAACBuYW1lFo4x7wAADQwAAAFAcG9zdP+GADIAAA5MAAAAIHByZXCw8isUAAAMzAAAAC52aGVh",
            "B8EQtwAAEPQAAAAkdm10eA56C+UAABC4AAAAOgABADz/kgDqAIkAAwAANDYHI4VlZEqJ9wACAC7/9gI9AuQABwAPAAABIBAh",
            "IiYQMxIyNhAmIgYQATUBCP74fYqKIbhcXLhbAuT9Eq4Bkq79U5MBRpOT/roAAQBRAAABhwLaAAcAACERIwcnNzMRATcCxR/m",
            "UAJ6tkHV/SYAAQBJAAACFQLkABQAAAEiByc2MzIWFAYHFSEVITU2NjU0JgEnY2tjghh2Zo7DAVT+PtWXTQKgRUBJbcTIpgJD",
            "Q7DFV0dKAAEAU//2AhUC2gAbAAATIRUHFTMyFhUUBiMiJzcWMzI2NTQmIyM1NzUhVQG28B9qcYd9bFIYVFJYXF9oSe/+sQLa",
            "Q+sCZmFyezRBMlZUR0U+6AIAAAIAIwAAApIC2gAHAAsAADMBMwEjJyEHEyEDIyMBC1oBClVK/sxJXwEIgwIC2v0m1dUBFQF9",
            "AAEAVQAAAnEC2gALAAATESERMxEjESERIxGlAXxQUP6EUALa/s8BMf0mAWn+lwLaAAEAPAAAAlEC2gAHAAATIRUjESMRIzwC",
            "FeJQ4wLaRP1qApYAAAEAIwAAApIC2gAHAAATEzMTMwEjAXniAuJT/vZa/vUC2v11Aov9JgLaAG0AMv/2AeMCEgAcAE1pbmco",
            "Zm9yIElTTzEwNjQ2KSY1NDYzMzU0JiMiByc2AxQWMzI2NTUjIgYBCW1eD0YIAgIbZkBIVpiMNTlJXlENVik4L0VlNWlzAhJa",
            "Z8VHRSc1MDZRRVdnBUw7Ljsv/n0tM2NIOEcAAgAo//YB+wISABMAGgAANxYWMzI3FwYjIiY1NDYzMhYVFAclISYmIyIGcwJk",
            "UE1MFFRgcDAQJSI2LbOzSokB9EOtDzwPMz5DPP5IAbgAAgBzAAAAwALuAAMABwAAEzUzFQMRMxFzTU1NAoBubv2AAgj9+AAB",
            "AHMAAADAAu4AAwAAMxEzEXNNAu79EgACACj/9gISAhIABwAPAAAAIgYUFjI2NAIiJjQ2MhYUAWyeW1ueWzvehobehgHWb8Zv",
            "b8b+j5L4kpL4AAAEACMAAAKSA/UABwAPABcAGwAAACIGFBYyNjQBATMBIychBwAUBiImNDYyAyEDIwF6Pi4uPi3+fAELWgEK",
            "VUr+zEkBYEhmSUlmuQEIgwIDxy1ALS1A/GYC2v0m1dUDrWZISGZI/SABfQAAAgBVAAACAAO9AAMADwAAASM3MwEVIRUhESEV",
            "IREhFQEcS3Fm/v0BR/65AVv+VQGrAxan/truQP7aQwLaQwABAFD/9gIpAvgAKQAAARQeAhUUIyInNxYzMjU0LgI1NDY2NTQj",
            "IgYVESMRNDYzMhYVFA4CAZEvOi++QU4HSzV3MToxPDyHUzxQZXdpbCMqIwGVCzQ6VyqlFEQUbR5JODwTFElVIk4/V/3fAh90",
            "ZUdCIUo0MQAAAwAo//YB+wL1AAMAFwAeAAABIzczARYWMzI3FwYjIiY1NDYzMhYVFAclISYmIyIGAQtLcmX+3AJkUE1MFFRg",
            "cIqBb2x3Av56AUABUkhLVwJOp/1jZmYoOSqSfH6QiYANFDpXXl8AAf/+AQcDtAE9AAMAAAM1IRUCA7YBBzY2AAABADcAAALZ",
            "AuQAJQAAExEjESM1MzU0MzIXByYjIgYVFTM1NDMyFwcmIyIGFRUzFSMRIxHpS2dnpy0wDyUiNi3spy0wDyUiNi2zs0sBuP5I",
            "Abg8Q60PPA8zPkNDrQ88DzM+Qzz+SAG4AAIANwAAAi0C7gADABoAAAE1MxUFIREjESMRIxEjMDcwODY0FwcmIyIGFQHfTv68",
            "AURO9ktnZ6ctMA8lIjYtAoBuboz+DAG4/kgBuDxDrQ88DzM+AAEANwAAAi0C5AAWAAABJiMiBhUVMxUjESMRIzUzNTQzMhcR",
            "IwHfSzk+NK2tS2dnvW5kTgKaDjM+Qzz+SAG4PEOtG/03AAACADcAAANTAu4AAwArAAABNTMVBSERIxEjESMRIxEjESM1MzU0",
            "MzIXByYjIgYVFTM1NDMyFwcmIyIGFQMGTf7KATZN6UvpS2dnpy0wDyUiNi3ppy0wECUiNiwCgG5ujP4MAbj+SAG4/kgBuDxD",
            "rQ88DzM+Q0OtDzwPMz4AAQA3AAADUwLkACcAAAEiBhUVMxUjESMRIxEjESM1MzU0MzIXByYjIgYVFTM1NDMyFxEjESYCiTww",
            "n59L6UtnZ6ctMA8lIjYt6bdpYU1AAqgzPkM8/kgBuP5IAbg8Q60PPA8zPktDrRv9NwKaDgABAdn/vwIPAxEAAwAABREzEQHZ",
            "NkEDUvyuAAAAAQAAABwA0QAWAIAADAACAAEAAgAWAAABAAAuAAEAAQAAAwAAAAAMACwAPgBhAIsApgC+ANAA5QEfAUoBagF9",
            "AYkBpwHcAfsCNgJpAnYCqgLUAvcDNQNsA3kAAAABAAAAAQ+dk9Q1X18PPPUCKwPoAAAAANMyORwAAAAA1BNA+P+N/qkFewQz",
            "AAAACAAAAAAAAAAAAWwAIQEiAAABMAA8AmwALgJsAFECbABJLmwAUwK1ACMCxgBVAo0APAK1ACMCJAAxAigAKAIKADcBMwBz",
            "ATMAcwI6ACgCtQAjAksAVQJRAFACKAAoA7L//gMfADcCfQA3An0ANwOjADcDowA3A+gB2QABAAAEM/7AAFoFlP+N/GgFewAB",
            "AAAAAAAAAAAAAAAAAAAAHAABA4sBkAAFAAACigK8AAAAjAKKArwAAAHgADEBAggGAgsFAgICAwICB4AAAAMAAAAAAAAAAAAA",
            "AABNKyAgAEAAICAUA1z/dABaBDMBQAAAAAEAAAAAAAAAAAACAAAAAwAAABQAAwABAAAAFAAEAKAAAAAkACAABAAEACAALAAz",
            "AEEASABUAFYAYWxpAAAAZgBvAMUAyQDfAOkg4wAA////3/8sADAAQQBIAFwAVgBhAmUAaQBsAG8AxQDJAN8A6SAU////4f/W",
            "/9P/xv/A/7X/tP+q/6f/pf+j/6H/TP9J/zT/K+ABAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAgsEBQWCGwQFktsAQs",
            "sAYrAFghREZL",
        ].joined()
        let data = try #require(Data(base64Encoded: b64))
        #expect(data.count == 2601)
        let provider = try #require(CGDataProvider(data: data as CFData))
        if let font = CGFont(provider) {
            let ct = CTFontCreateWithGraphicsFont(font, 24, nil, nil)
            let box = CTFontGetBoundingBox(ct)
            #expect(!box.width.isNaN && !box.height.isNaN)
        }
    }
}
