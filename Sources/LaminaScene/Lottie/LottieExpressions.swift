import Foundation
enum LottieExpressions {
    static func make(diagnostics: LottieDiagnostics) -> LottieExpressionRunner? { nil }
}
