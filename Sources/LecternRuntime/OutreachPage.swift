import BlogModel
import Foundation

/// `lectern stats --html` and the admin listener's `/stats`: the outreach report as one
/// self-contained page (inline styles, light and dark, charts as inline SVG, no script, nothing
/// fetched), every text escaped.
public enum OutreachPage {
    public static func html(_ report: OutreachReport) -> String {
        let title = HTMLText.escape("\(report.blog): outreach")
        var html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex"><title>\(title)</title><style>\(style)</style></head><body>
        <h1>\(title)</h1>
        <p class="muted">From what the blog keeps: deliveries, reactions, replies, webmentions and follows. Nothing about visitors. \
        Made \(HTMLText.escape(ISO8601DateFormatter().string(from: report.generated))).</p>
        <h2>Followers</h2>
        <p><strong>\(report.followers.total)</strong> followers on \(report.followers.byServer.count) servers.</p>
        """
        html += followersChart(report.followers.days)
        if !report.followers.byServer.isEmpty {
            html += "<table><thead><tr><th>server</th><th class=n>followers</th></tr></thead><tbody>"
            for server in report.followers.byServer.prefix(20) {
                html += "<tr><td>\(HTMLText.escape(server.host))</td><td class=n>\(server.count)</td></tr>"
            }
            html += "</tbody></table>"
        }
        html += "<h2>Posts</h2>" + responsesChart(Array(report.posts.prefix(20)))
        html += """
        <table><thead><tr><th>post</th><th class=n>servers</th><th class=n>inboxes ✓ / ✗ / …</th><th class=n>likes</th>\
        <th class=n>boosts</th><th class=n>quotes</th><th class=n>replies (fediverse, Bluesky, web)</th><th class=n>followers ±</th></tr></thead><tbody>
        """
        for post in report.posts {
            html += "<tr><td><a href=\"\(HTMLText.escape(post.url))\">\(HTMLText.escape(post.title))</a></td><td class=n>\(post.servers)</td>"
                + "<td class=n>\(post.inboxes.delivered) / \(post.inboxes.failed) / \(post.inboxes.pending)</td>"
                + "<td class=n>\(post.likes + post.webLikes)</td><td class=n>\(post.boosts + post.webReposts)</td><td class=n>\(post.quotes)</td>"
                + "<td class=n>\(post.replies.fediverse), \(post.replies.bluesky), \(post.replies.webmention)</td>"
                + "<td class=n>+\(post.followers.gained) −\(post.followers.lost)</td></tr>"
        }
        return html + "</tbody></table></body></html>\n"
    }

    /// The total at the end of each day with follows or unfollows, as a line.
    static func followersChart(_ days: [OutreachReport.Followers.Day]) -> String {
        guard days.count >= 2 else { return "<p class=\"muted\">The chart of followers over time needs two days of follows.</p>" }
        let (width, height, pad) = (640.0, 180.0, 28.0)
        let most = Double(max(1, days.map(\.total).max() ?? 1))
        let points = days.enumerated().map { index, day in
            let x = pad + (width - 2 * pad) * Double(index) / Double(days.count - 1)
            let y = height - pad - (height - 2 * pad) * Double(day.total) / most
            return String(format: "%.1f,%.1f", x, y)
        }.joined(separator: " ")
        return """
        <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="Followers over time, from \(days.first!.total) to \(days.last!.total)">
        <line class="axis" x1="\(pad)" y1="\(height - pad)" x2="\(width - pad)" y2="\(height - pad)"/>
        <polyline class="line" points="\(points)"/>
        <text x="\(pad)" y="\(height - 8)">\(HTMLText.escape(days.first!.day))</text>
        <text x="\(width - pad)" y="\(height - 8)" text-anchor="end">\(HTMLText.escape(days.last!.day))</text>
        <text x="\(pad)" y="16">\(Int(most)) followers</text>
        </svg>
        """
    }

    /// Likes, boosts and replies of the newest posts, as stacked bars.
    static func responsesChart(_ posts: [OutreachReport.Post]) -> String {
        guard !posts.isEmpty else { return "<p class=\"muted\">No post yet.</p>" }
        let row = 22.0, label = 220.0, width = 640.0
        let most = Double(max(1, posts.map(\.responses).max() ?? 1))
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(row * Double(posts.count) + 30))\" role=\"img\" aria-label=\"Likes, boosts and replies per post\">"
        for (index, post) in posts.enumerated() {
            let y = Double(index) * row
            let parts = [("likes", post.likes + post.webLikes), ("boosts", post.boosts + post.webReposts + post.quotes),
                         ("replies", post.replies.fediverse + post.replies.bluesky + post.replies.webmention)]
            let shown = post.title.count > 32 ? String(post.title.prefix(31)) + "…" : post.title
            svg += "<text x=\"0\" y=\"\(y + 15)\">\(HTMLText.escape(shown))</text>"
            var x = label
            for (kind, count) in parts where count > 0 {
                let w = (width - label - 40) * Double(count) / most
                svg += String(format: "<rect class=\"%@\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\"><title>%d %@</title></rect>",
                              kind, x, y + 4, w, count, kind)
                x += w
            }
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\">%d</text>", x + 4, y + 15, post.responses)
        }
        let legendY = row * Double(posts.count) + 20
        svg += "<rect class=\"likes\" x=\"\(label)\" y=\"\(legendY - 10)\" width=\"10\" height=\"10\"/><text x=\"\(label + 14)\" y=\"\(legendY)\">likes</text>"
        svg += "<rect class=\"boosts\" x=\"\(label + 70)\" y=\"\(legendY - 10)\" width=\"10\" height=\"10\"/><text x=\"\(label + 84)\" y=\"\(legendY)\">boosts and quotes</text>"
        svg += "<rect class=\"replies\" x=\"\(label + 220)\" y=\"\(legendY - 10)\" width=\"10\" height=\"10\"/><text x=\"\(label + 234)\" y=\"\(legendY)\">replies</text>"
        return svg + "</svg>"
    }

    static let style = """
    :root { color-scheme: light dark; --bg: #fdfcfa; --fg: #1f2328; --muted: #5f6670; --rule: #e4e1dc; --a: #0b5fbf; --b: #b45309; --c: #15803d; }
    @media (prefers-color-scheme: dark) { :root { --bg: #15171a; --fg: #e6e6e3; --muted: #a0a6ad; --rule: #2d3136; --a: #7ab4ff; --b: #f59e0b; --c: #4ade80; } }
    body { margin: 0 auto; max-width: 52rem; padding: 1.5rem 1.25rem 3rem; background: var(--bg); color: var(--fg);
      font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    a { color: var(--a); } .muted { color: var(--muted); }
    table { border-collapse: collapse; width: 100%; margin: 1rem 0 2rem; display: block; overflow-x: auto; }
    th, td { border-bottom: 1px solid var(--rule); padding: .35rem .5rem; text-align: left; vertical-align: top; }
    .n { text-align: right; white-space: nowrap; }
    td:first-child { min-width: 14rem; }
    .chart { width: 100%; height: auto; margin: .5rem 0 1rem; font-size: 12px; }
    .chart text { fill: var(--muted); } .axis { stroke: var(--rule); }
    .line { fill: none; stroke: var(--a); stroke-width: 2; }
    .likes { fill: var(--a); } .boosts { fill: var(--b); } .replies { fill: var(--c); }
    """
}
