import Foundation

/// Builds a site folder (`lectern.yml`, `content/`, `theme/`, `static/`) into `public/`.
///
/// ```swift
/// let report = try SiteBuilder(root: siteURL).build()
/// print("\(report.written) files written, \(report.reused) reused")
/// ```
public struct SiteBuilder: Sendable {
    public struct Options: Sendable {
        public var includeDrafts: Bool
        /// Where the output goes; `<root>/public` when nil.
        public var outputFolder: URL?

        public init(includeDrafts: Bool = false, outputFolder: URL? = nil) {
            self.includeDrafts = includeDrafts
            self.outputFolder = outputFolder
        }
    }

    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public var publicFolder: URL { root.appendingPathComponent("public") }

    /// Loads, checks and renders everything, then swaps the result in. On error nothing in the
    /// output folder changes.
    @discardableResult
    public func build(_ options: Options = Options()) throws -> BuildReport {
        let start = DispatchTime.now()
        let configURL = root.appendingPathComponent(SiteConfig.fileName)
        let configText = (try? String(contentsOf: configURL, encoding: .utf8)) ?? ""
        let config = try SiteConfig.load(from: root)
        let theme = try Theme.load(overrideFolder: root.appendingPathComponent("theme"))
        let content = try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: options.includeDrafts)
        let model = SiteModel(config: config, content: content)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = config.timeZone
        let plan = SitePlan(model: model, theme: theme, configText: configText, includeDrafts: options.includeDrafts,
                            year: calendar.component(.year, from: Date()),
                            staticFolder: root.appendingPathComponent("static"))
        let files = try plan.files()
        let output = options.outputFolder ?? publicFolder
        let result = try OutputWriter(publicFolder: output).write(files)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return BuildReport(written: result.written, reused: result.reused, pages: result.pages, seconds: seconds)
    }
}
