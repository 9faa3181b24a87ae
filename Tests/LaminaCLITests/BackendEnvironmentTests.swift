import Foundation
import Testing

@testable import lamina

/// `LAMINA_RENDERER` is parsed in one place (`BackendChoice.environment()`, read once per process): the values it
/// takes and the usage error for any other.
@Suite struct BackendEnvironmentTests {
    @Test func theVariableNamesARendererOrIsAUsageError() throws {
        #expect(try BackendChoice.parse(environment: nil).get() == nil)
        for choice in BackendChoice.allCases {
            #expect(try BackendChoice.parse(environment: choice.rawValue).get() == choice)
        }
        for bad in ["GLES", "", "vulkan"] {
            #expect(throws: Error.self) { try BackendChoice.parse(environment: bad).get() }
            if case .failure(let failure) = BackendChoice.parse(environment: bad) {
                #expect(failure.code == 2)
                #expect(failure.message == "LAMINA_RENDERER=\(bad): expected auto, cpu or gles")
            }
        }
    }
}
