import BlogModel
import Site
import Testing

@Suite struct DeliverySettingsTests {
    @Test func timeoutAndFirstRetryDefaultToThirtySeconds() throws {
        let config = try SiteConfig.parse("baseURL: https://blog.example\n")
        #expect(config.delivery.timeout == 30)
        #expect(config.delivery.firstRetry == 30)
        #expect(config.delivery.keepDelivered == 7 * 86_400)
    }

    @Test func timeoutAndFirstRetryReadDurations() throws {
        let config = try SiteConfig.parse("baseURL: https://blog.example\ndelivery:\n  timeout: 5s\n  firstRetry: 2m\n  keepDelivered: 30d\n")
        #expect(config.delivery.timeout == 5)
        #expect(config.delivery.firstRetry == 120)
        #expect(config.delivery.keepDelivered == 30 * 86_400)
    }

    @Test func outOfRangeDurationsAreRefusedByName() throws {
        for (key, value) in [("timeout", "0"), ("timeout", "10m"), ("timeout", "soon"), ("firstRetry", "2d"),
                             ("keepDelivered", "10m"), ("keepDelivered", "400d"), ("keepDelivered", "forever")] {
            let error = #expect(throws: (any Error).self, "\(key): \(value)") {
                try SiteConfig.parse("baseURL: https://blog.example\ndelivery:\n  \(key): \(value)\n")
            }
            #expect(error.map { "\($0)".contains(key) } == true, "the error names \(key): \(error.map { "\($0)" } ?? "none")")
        }
    }
}
