// `import CAWindow` brings QuartzCore (layers, animations, CARenderer) with it, as AppKit brings
// QuartzCore to a view: one import for a windowed app.
@_exported import QuartzCore
