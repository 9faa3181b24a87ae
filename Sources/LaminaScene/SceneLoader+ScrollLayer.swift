import Foundation
import LaminaCore
import LaminaLayers

/// A scroll layer's key (docs/scene-format.md, "Layer types"): `scrollMode`, one of Core Animation's four strings.
/// The bounds' origin, the scroll offset, is the plain `bounds` key and is taken as given, whatever the mode.
extension SceneLoader {
    func readScroll(_ layer: ScrollLayer, keys: [String: JSONMember], path: String) {
        guard let member = keys["scrollMode"] else { return }
        if let mode = choice(member.value, ScenePath.key(path, "scrollMode"), what: "scroll mode",
                             options: ScrollLayerScrollMode.allModes.map { ($0.rawValue, $0) })
        {
            layer.scrollMode = mode
        }
    }
}
