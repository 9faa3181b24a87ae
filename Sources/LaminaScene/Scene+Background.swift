import Foundation
import LaminaCore
import LaminaLayers

extension Scene {
    /// Puts the scene over an opaque colour (`--background`): a layer of the scene's size filled with `color`
    /// becomes the root, the old root its only sublayer, so a transparent scene (a Lottie file) renders flat.
    public mutating func flatten(over color: Color) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        let holder = Layer()
        holder.anchorPoint = .zero
        holder.position = .zero
        holder.bounds = CGRect(origin: .zero, size: size)
        holder.backgroundColor = color
        holder.name = "background"
        holder.addSublayer(root)
        Transaction.commit()
        _ = holder.presentationSnapshot(at: 0)
        root = holder
    }
}
