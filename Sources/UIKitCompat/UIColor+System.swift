/// UIKit's system and semantic colours.
///
/// On iOS these are *dynamic*: each resolves against the trait collection (light or dark
/// appearance, increased contrast, elevation). There are no trait collections here, so each is
/// its iOS light-mode, default-contrast value — what a layer shows in a light-mode app.
///
/// Source: Apple's Human Interface Guidelines colour tables ("Color", iOS/iPadOS system
/// colours and the "Specifications" table, values as 0–255 sRGB), as published for iOS 15–18
/// (systemMint and systemCyan are iOS 15 colours; iOS 13–14 had another systemTeal); iOS 26
/// retuned several hues (for example systemBlue) and those newer values are not used.
/// The label and fill alphas are those UIKit reports in light mode. Written from the published
/// tables, not read from a device: treat the last digit with care.
extension UIColor {
    /// sRGB 0–255 components, as the HIG tables give them.
    private static func hig(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> UIColor {
        UIColor(red: r / 255, green: g / 255, blue: b / 255, alpha: a)
    }

    // MARK: Adaptable system colours (HIG "System colors", light)
    public static let systemRed = hig(255, 59, 48)
    public static let systemOrange = hig(255, 149, 0)
    public static let systemYellow = hig(255, 204, 0)
    public static let systemGreen = hig(52, 199, 89)
    public static let systemMint = hig(0, 199, 190)
    public static let systemTeal = hig(48, 176, 199)
    public static let systemCyan = hig(50, 173, 230)
    public static let systemBlue = hig(0, 122, 255)
    public static let systemIndigo = hig(88, 86, 214)
    public static let systemPurple = hig(175, 82, 222)
    public static let systemPink = hig(255, 45, 85)
    public static let systemBrown = hig(162, 132, 94)

    // MARK: System grays (light)
    public static let systemGray = hig(142, 142, 147)
    public static let systemGray2 = hig(174, 174, 178)
    public static let systemGray3 = hig(199, 199, 204)
    public static let systemGray4 = hig(209, 209, 214)
    public static let systemGray5 = hig(229, 229, 234)
    public static let systemGray6 = hig(242, 242, 247)

    /// The app's tint; UIKit's default tint is systemBlue (iOS 15+ `UIColor.tintColor`).
    public static let tintColor = systemBlue

    // MARK: Label colours (light)
    public static let label = hig(0, 0, 0)
    public static let secondaryLabel = hig(60, 60, 67, 0.6)
    public static let tertiaryLabel = hig(60, 60, 67, 0.3)
    public static let quaternaryLabel = hig(60, 60, 67, 0.18)
    public static let placeholderText = hig(60, 60, 67, 0.3)
    public static let link = hig(0, 122, 255)

    // MARK: Separators (light)
    public static let separator = hig(60, 60, 67, 0.29)
    public static let opaqueSeparator = hig(198, 198, 200)

    // MARK: Fills (light)
    public static let systemFill = hig(120, 120, 128, 0.2)
    public static let secondarySystemFill = hig(120, 120, 128, 0.16)
    public static let tertiarySystemFill = hig(118, 118, 128, 0.12)
    public static let quaternarySystemFill = hig(116, 116, 128, 0.08)

    // MARK: Backgrounds (light)
    public static let systemBackground = hig(255, 255, 255)
    public static let secondarySystemBackground = hig(242, 242, 247)
    public static let tertiarySystemBackground = hig(255, 255, 255)
    public static let systemGroupedBackground = hig(242, 242, 247)
    public static let secondarySystemGroupedBackground = hig(255, 255, 255)
    public static let tertiarySystemGroupedBackground = hig(242, 242, 247)

    // MARK: Nonadaptable (the same in both appearances on iOS)
    /// "The system color for text on a dark background": white at 60 % alpha.
    public static let lightText = UIColor(white: 1, alpha: 0.6)
    /// "The system color for text on a light background": black.
    public static let darkText = UIColor(white: 0, alpha: 1)
}
