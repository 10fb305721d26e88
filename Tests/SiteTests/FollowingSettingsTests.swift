import BlogModel
import Testing
@testable import Site

@Suite struct FollowingSettingsTests {
    @Test func offByDefault() throws {
        let config = try SiteConfig.parse("title: T\nbaseURL: https://blog.example\n")
        #expect(config.following == FollowingSettings())
        #expect(!config.following.page)
    }

    @Test func pagePathAndTitle() throws {
        let config = try SiteConfig.parse("baseURL: https://blog.example\nfollowing: { page: true, path: /blogroll/, title: Blogroll, menu: 3 }\n")
        #expect(config.following.page)
        #expect(config.following.path == "/blogroll/")
        #expect(config.following.title == "Blogroll")
        #expect(config.following.menuOrder == 3)
    }

    @Test func badPathsAndKeysAreErrors() {
        for bad in ["/../x/", "blogroll", "/a b/", "/x"] {
            #expect(throws: (any Error).self) { try SiteConfig.parse("following:\n  page: true\n  path: \"\(bad)\"\n") }
        }
        #expect(throws: (any Error).self) { try SiteConfig.parse("following:\n  pages: true\n") }
    }
}
