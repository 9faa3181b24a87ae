// `swift run backing-image [out.png] [scale]`: writes the backing-image demo (docs/porting.md, "A ported sample").
import BackingImageSample
import Foundation

let arguments = CommandLine.arguments
let path = arguments.count > 1 ? arguments[1] : "backing-image.png"
let scale = arguments.count > 2 ? Double(arguments[2]) ?? 1 : 1
if writeBackingImageDemo(to: URL(fileURLWithPath: path), scale: CGFloat(scale)) {
    print("backing-image: wrote \(path)")
} else {
    FileHandle.standardError.write(Data("backing-image: could not write \(path)\n".utf8))
    exit(1)
}
