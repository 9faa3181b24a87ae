import Foundation
import LaminaCore
import LaminaImageIO

extension SceneLoader {
    /// Whether `data` is a zip archive (a dotLottie file): its local-file or end-of-archive signature.
    static func isZipArchive(_ data: Data) -> Bool {
        data.count >= 4 && data.prefix(2).elementsEqual([0x50, 0x4B])
            && (data.dropFirst(2).prefix(2).elementsEqual([3, 4]) || data.dropFirst(2).prefix(2).elementsEqual([5, 6]))
    }

    /// A dotLottie archive's animation (`options.lottie.animationID`, else its default) as a scene; its images
    /// come from the archive. Problems name the archive and the animation's file in it.
    func loadDotLottie(_ data: Data) throws(SceneError) -> Scene {
        let archive: DotLottie
        let json: Data
        let id: String
        do {
            archive = try DotLottie(data: data)
            id = options.lottie.animationID ?? archive.defaultAnimationID
            json = try archive.animationData(id: id)
        } catch {
            throw SceneError(problems: [problem("", at: nil, "\(error)")])
        }
        let inner = "\(fileName) (animation \"\(id)\")"
        let root: JSONValue
        var issues: [SceneProblem] = []
        do throws(JSONSyntaxError) {
            let parsed = try JSONParser.parse(json)
            root = parsed.root
            issues = parsed.issues.map {
                SceneProblem(file: inner, line: $0.position.line, column: $0.position.column, path: $0.path,
                             message: $0.message)
            }
        } catch {
            throw SceneError(problems: [SceneProblem(file: inner, line: error.position.line,
                                                     column: error.position.column, path: "", message: error.message)])
        }
        guard LottieParser.looksLikeLottie(root) else {
            throw SceneError(problems: [SceneProblem(file: inner, path: "", message: "not a Lottie animation")])
        }
        let animation = try LottieAnimation(
            root: root, issues: issues, fileName: inner, baseDirectory: URL(fileURLWithPath: baseDirectory),
            options: options, imageData: { path throws -> Data? in try archive.imageData(path: path) })
        return animation.scene()
    }
}
