// `import Lamina` brings in every public module of the package (docs/architecture.md, "Targets").
@_exported import Foundation
@_exported import LaminaCore
@_exported import LaminaImageIO
@_exported import LaminaDrawing
@_exported import LaminaLayers
@_exported import LaminaCPU
@_exported import LaminaGLES
@_exported import LaminaScene
@_exported import LaminaDisplay
// Core Animation's, Core Graphics' and ImageIO's names for the same objects (docs/porting.md).
@_exported import QuartzCore
@_exported import CoreGraphics
@_exported import ImageIO
