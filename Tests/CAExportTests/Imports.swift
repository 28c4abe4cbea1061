// The modules under test, re-exported module-wide so test files import only Testing and
// Foundation (a file importing Testing and this package's CoreGraphics does not compile on
// Linux; see Tests/CoreGraphicsTests/Imports.swift).
@_exported import CAExport
@_exported import CoreGraphics
@_exported import CATestSupport
@_exported import CDeflate
