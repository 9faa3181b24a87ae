import Foundation
import LaminaCore

// Implicit animations (docs/animation.md, "Implicit animations"): a change of an animatable property of a layer that
// has been drawn asks for an action, as CALayer's `action(forKey:)` search does.

extension Layer {
    /// Actions by key, searched after the delegate's (`NSNull()` or `NullAction` stops the search); nil by default.
    public var actions: [String: Action]? {
        get { ModelLock.shared.withLock { storedActions } }
        set { ModelLock.shared.withLock { storedActions = newValue } }
    }

    /// Core Animation's style dictionary: its `"actions"` entry (a `[String: Action]`) is searched after
    /// `actions`; nil by default.
    public var style: [AnyHashable: Any]? {
        get { ModelLock.shared.withLock { storedStyle } }
        set { ModelLock.shared.withLock { storedStyle = newValue } }
    }

    /// The action for a change of `key`: the delegate's `action(for:forKey:)`, then `actions[key]`, then
    /// `style["actions"][key]`, then `defaultAction(forKey:)` of the layer's class. `NSNull()` (or `NullAction`)
    /// found on the way ends the search with no action (nil).
    public func action(forKey key: String) -> Action? {
        if let found = delegate?.action(for: self, forKey: key) { return found.isNullAction ? nil : found }
        let (actions, style) = ModelLock.shared.withLock { (storedActions, storedStyle) }
        if let found = actions?[key] { return found.isNullAction ? nil : found }
        if let styleActions = style?["actions"] as? [String: Action], let found = styleActions[key] {
            return found.isNullAction ? nil : found
        }
        if let found = type(of: self).defaultAction(forKey: key) { return found.isNullAction ? nil : found }
        return nil
    }

    /// The default action of `defaultAction(forKey:)`: for an animatable key, a `BasicAnimation` from the value
    /// shown to the new one, with the current transaction's duration and timing function (else
    /// `MediaTimingFunction(name: .default)`); nil for other keys.
    public static func implicitAnimation(forKey key: String) -> Animation? {
        guard AnimatableProperty.named(key) != nil else { return nil }
        let animation = BasicAnimation(keyPath: key)
        animation.duration = Transaction.animationDuration()
        animation.timingFunction = Transaction.animationTimingFunction() ?? MediaTimingFunction(name: .default)
        return animation
    }

    /// Runs the actions for changed `fields` of a layer that has been drawn, unless the transaction disables them.
    func runActions(for fields: UInt64) {
        guard !Transaction.disableActions() else { return }
        var rest = fields
        while rest != 0 {
            let index = rest.trailingZeroBitCount
            rest &= rest - 1
            guard let key = LayerState.Field(rawValue: index)?.actionKey else { continue }
            runAction(forKey: key)
        }
    }

    /// Runs the action for a change of `key` (a specialised layer's property: its field stands for many keys), unless
    /// the transaction disables actions.
    func runAction(forKey key: String) {
        guard !Transaction.disableActions(), let action = action(forKey: key) else { return }
        action.run(forKey: key, object: self, arguments: nil)
    }
}

extension LayerState.Field {
    /// The action key a change of this field asks for (the property's key, from the table); nil for fields without
    /// an implicit action.
    var actionKey: String? { Self.actionKeys[rawValue] }

    private static let actionKeys: [String?] = LayerProperty.all.map { $0.hasImplicitAction ? $0.key : nil }

    /// The fields whose changes ask for an action.
    static let animatable: UInt64 = LayerProperty.mask(\.hasImplicitAction)
}
