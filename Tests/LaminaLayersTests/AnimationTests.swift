import Foundation
import LaminaCore
@testable import LaminaLayers
import Testing

@Suite struct AnimationTests {
    @Test func keyPathsResolve() {
        #expect(AnimatableProperty.named("position.x") != nil)
        #expect(AnimatableProperty.named("nope") == nil)
    }
}
