// Swift Testing ships a cross-import overlay for a module named `CoreGraphics`
// (`_Testing_CoreGraphics`, Apple's CGImage attachments). It is declared in the Linux
// toolchain too but not built there, so any file that imports both `Testing` and this
// package's `CoreGraphics` fails with "no such module '_Testing_CoreGraphics'". Importing
// CoreGraphics once here, re-exported module-wide, and only `Testing` in the test files
// keeps the two imports out of the same file.
@_exported import CoreGraphics
@_exported import CATestSupport
@_exported import CATestSupport
