@_exported import CoreAnimation
