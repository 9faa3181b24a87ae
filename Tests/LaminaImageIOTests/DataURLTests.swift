import Foundation
import LaminaImageIO
import Testing

/// `data:` URLs as Lottie embeds images (docs/archives.md): types, base64 and percent payloads, and every error.
@Suite struct DataURLTests {
    func dataURLError(_ string: String, limit: Int = DataURL.defaultLimit) -> String? {
        do {
            let url = try DataURL(string, limit: limit)
            Issue.record("decoded \(url)")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func base64ImagesDecode() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let url = try DataURL("data:image/png;base64," + png.base64EncodedString())
        #expect(url.mimeType == "image/png" && url.isBase64 && url.parameters.isEmpty)
        #expect(url.data == png)
        // Case does not matter for the scheme, the type or "base64".
        let upper = try DataURL("DATA:Image/PNG;BASE64," + png.base64EncodedString())
        #expect(upper.mimeType == "image/png" && upper.data == png)
    }

    @Test func base64ToleratesWhitespaceMissingPaddingAndEscapes() throws {
        let bytes = Data((0..<200).map { UInt8($0) })
        let encoded = bytes.base64EncodedString()
        let spaced = stride(from: 0, to: encoded.count, by: 10).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(encoded[from..<(encoded.index(from, offsetBy: 10, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }.joined(separator: "\n ")
        #expect(try DataURL("data:image/jpeg;base64,\(spaced)").data == bytes)
        #expect(try DataURL("data:;base64,YWI").data == Data("ab".utf8))
        #expect(try DataURL("data:;base64,YWI%3D").data == Data("ab".utf8))
        #expect(try DataURL("data:;base64,").data == Data())
    }

    @Test func plainPayloadsArePercentDecoded() throws {
        let url = try DataURL("data:,Hello%2C%20World%21")
        #expect(url.mimeType == "text/plain" && !url.isBase64)
        #expect(url.data == Data("Hello, World!".utf8))
        let withCharset = try DataURL("data:text/plain;charset=UTF-8,%E2%9C%93")
        #expect(withCharset.parameters == ["charset=UTF-8"])
        #expect(withCharset.data == Data("\u{2713}".utf8))
        #expect(DataURL.isDataURL("data:,x") && DataURL.isDataURL("Data:,x") && !DataURL.isDataURL("images/img_0.png"))
    }

    @Test func errorsAreNamed() {
        #expect(dataURLError("images/a.png") == #"not a data URL (it does not start with "data:")"#)
        #expect(dataURLError("data:image/png;base64") == "data URL without a comma before its payload")
        #expect(dataURLError("data:image;base64,AAAA") == #"data URL with an invalid media type "image""#)
        #expect(dataURLError("data:,100%") == "data URL with an invalid percent escape at character 10")
        #expect(dataURLError("data:,%zz") == "data URL with an invalid percent escape at character 7")
        #expect(dataURLError("data:;base64,AA*A") == "data URL with invalid base64 at character 3: '*' is not a base64 character")
        #expect(dataURLError("data:;base64,AA=A") == "data URL with invalid base64 at character 4: characters after the padding")
        #expect(dataURLError("data:;base64,AAAAA") == "data URL with invalid base64 at character 5: the payload ends in the middle of a byte")
        #expect(dataURLError("data:;base64,AA=") == "data URL with invalid base64 at character 3: the padding does not complete a group of four")
    }

    @Test func theSizeLimitIsCheckedBeforeDecoding() throws {
        let payload = Data(count: 3000).base64EncodedString()
        #expect(dataURLError("data:image/png;base64,\(payload)", limit: 1000)
            == "data URL payload of 3000 bytes is past the limit of 1000 bytes")
        #expect(dataURLError("data:," + String(repeating: "a", count: 20), limit: 10)
            == "data URL payload of 20 bytes is past the limit of 10 bytes")
        // Exactly the limit decodes.
        #expect(try DataURL("data:;base64,\(payload)", limit: 3000).data.count == 3000)
    }
}
