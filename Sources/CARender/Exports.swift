// The builder produces the frame format: its results (RenderFrame, RenderStats …) are CAFrame's
// types, so whoever imports the builder sees them.
@_exported import CAFrame
