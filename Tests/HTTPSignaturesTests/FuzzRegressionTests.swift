import Dates
import Foundation
import Testing
@testable import HTTPSignatures

/// Inputs the fuzzers (Fuzz/, docs/fuzzing.md) found, fed to the same functions exactly as the
/// fuzz target did. Each one crashed the process before its fix.
@Suite struct HTTPSignaturesFuzzRegressionTests {
    /// fuzz-signature-headers: a header value that is not an IMF-fixdate falls through to the
    /// obsolete formats, where Foundation's DateFormatter trapped ("Incorrect range CFRange…")
    /// on a letter followed by a combining mark. Any request's `Date` (signature checks) or
    /// `If-Modified-Since` reached it. First the minimized input, then the one the fuzzer found.
    @Test(arguments: [[0x53, 0xDE, 0xAD],
                      Array("Sun, \u{7AD}7 Foo 10.none9037:94 MT".utf8),
                      Array("S\u{301}".utf8), Array("Sun, 06 Nov 1994 08:49:37 GMT\u{301}".utf8)] as [[UInt8]])
    func httpDateWithCombiningMarkIsNoDate(bytes: [UInt8]) {
        #expect(HTTPDate.parse(String(decoding: bytes, as: UTF8.self)) == nil)
    }

    /// fuzz-signature-headers: `created`/`expires` were any Double; the signing string writes
    /// them back with `Int(…)`, which trapped on huge, infinite or NaN values. Minimized input,
    /// fed to parse and signingString as the fuzz target does.
    @Test func cavageTimestampOutOfIntRangeIsMalformed() {
        let text = #"keyId="h"created=17000999999970000300,headers="(created)"signature="c2""#
        let request = HTTPRequestParts(method: "POST", url: "https://blog.example/inbox", headers: [])
        let header = try? CavageSignatureHeader.parse(text)
        _ = try? header?.signingString(for: request)  // trapped here before the fix
        #expect(header == nil)
        #expect(throws: SignatureError.malformed("created is not a Unix time")) { try CavageSignatureHeader.parse(text) }
    }

    /// The same through the inbox's checks: `expires=nan` passed the time window (comparisons
    /// with NaN are false), so a sender whose key we fetch could crash the server in verify().
    @Test(arguments: ["nan", "inf", "-inf", "1e300", "17000999999970000300"])
    func cavageExpiresThatIsNoTimeFailsThePrecheck(expires: String) throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let signature = #"keyId="https://remote.example/users/a#main-key",algorithm="hs2019",created=1700000000,"#
            + #"expires=\#(expires),headers="(request-target) (created) (expires) host digest",signature="c2lnbmF0dXJl""#
        let request = HTTPRequestParts(method: "POST", url: "https://blog.example/inbox",
                                       headers: [("Host", "blog.example"), ("Digest", BodyDigest.digestHeader(for: [])),
                                                 ("Signature", signature)])
        let checked = try? CavageVerifier(now: now, audience: nil).precheck(request)
        _ = try? checked?.header.signingString(for: request)  // trapped here before the fix
        #expect(checked == nil)
        #expect(throws: SignatureError.malformed("expires is not a Unix time")) { try CavageVerifier(now: now, audience: nil).precheck(request) }
    }

    @Test func obsoleteHTTPDatesStillParse() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
    }
}
