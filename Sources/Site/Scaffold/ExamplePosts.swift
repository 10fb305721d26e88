import BlogModel

/// The example content `lectern init` writes.
enum ExamplePosts {
    /// `lectern.yml`; `baseURL` and `owner` as `lectern init --base-url --owner` give them.
    static func config(title: String, baseURL: String = "http://127.0.0.1:8080", owner: String? = nil) -> String {
        let ownerLine = owner.map { "owner: \(YAMLScalar.quoted($0))            # your fediverse account: gets comment digests" }
            ?? "# owner: \"@you@social.example\"     # your fediverse account: gets comment digests"
        return """
        # Lectern site configuration. Every key is optional except title and baseURL.
        title: \(YAMLScalar.string(title))
        description: A small blog that also lives on the fediverse.
        author: Ada Writer
        baseURL: \(YAMLScalar.string(baseURL))
        username: blog
        \(ownerLine)
        language: en
        timezone: UTC
        postsPerPage: 10
        feedSize: 20
        server:
          host: 127.0.0.1
          port: 8080
        # comments:
        #   moderation: open               # open | first-time | closed
        # digest:
        #   interval: 1h                   # at most one comment digest per interval
        # federation:
        #   allowPrivateAddresses: true    # only to federate with a test server on this machine
        # Webmention (W3C): other sites' replies, likes and reposts of your posts arrive at
        # /webmention and become comments like fediverse replies (same moderation and blocks);
        # each published post notifies the sites it links to. Both off if the block is absent.
        webmention:
          receive: true
          send: true
        # Email subscribers (docs/newsletter.md): a form on every page, double opt-in, each new
        # post mailed through your SMTP relay. Off until enabled.
        # newsletter:
        #   enabled: true
        #   smtp: smtp://127.0.0.1:25        # or smtps://smtp.provider.example:465
        #   credentials: /etc/lectern/smtp   # a file holding user:password (never the password here)
        #   from: "My Blog <blog@blog.example>"

        """
    }

    static let welcome = """
    ---
    title: Welcome to Lectern
    date: 2025-01-12T09:00:00Z
    category: Notes
    tags: [lectern, meta]
    summary: What this blog is, and how people on Mastodon can follow it.
    pinned: true
    ---

    This blog is written as Markdown files and pre-rendered to plain HTML, so pages load fast
    and need no JavaScript.

    <!-- more -->

    ## Following from the fediverse

    Search for `@blog@127.0.0.1:8080` on your server, follow it, and new posts appear in your
    timeline. Reply to a post and your reply shows up under it as a comment.

    ## Where things live

    | Folder            | What it holds                          |
    |-------------------|----------------------------------------|
    | `content/posts/`  | posts, one Markdown file each          |
    | `content/pages/`  | standalone pages such as *About*       |
    | `static/`         | files copied as they are               |
    | `theme/`          | your overrides of the built-in theme   |

    """

    static let markdownTour = """
    ---
    title: "A tour of Markdown: tables, footnotes & more"
    date: 2025-02-03 14:30
    updated: 2025-02-10
    category: Guides
    tags: [markdown, writing]
    image: /images/lectern.svg
    ---

    Lectern speaks GitHub-flavoured Markdown, with "smart" quotes -- and dashes... and
    footnotes.[^1] Links like https://example.org become clickable on their own.

    ## Text

    *Emphasis*, **strong**, ~~struck~~, `inline code`, and a [link](https://commonmark.org).

    ## Code

    ```swift
    let greeting = "Hello, fediverse"
    print(greeting)
    ```

    ## Tables

    | Feature       | Supported | Notes                 |
    |:--------------|:---------:|----------------------:|
    | Tables        | yes       | with alignment        |
    | Footnotes     | yes       | collected at the end  |
    | Task lists    | yes       | read-only checkboxes  |

    ## Task list

    - [x] Write the post
    - [ ] Publish it

    ## Quote

    > Simplicity is prerequisite for reliability.[^dijkstra]

    [^1]: Footnotes are numbered and each links back to where it was cited.
    [^dijkstra]: Edsger W. Dijkstra, 1975.

    """

    static let cafeNotes = """
    ---
    title: Café crème, naïve résumé
    date: 2025-03-21
    category: Notes
    tags: [travel, coffee]
    ---

    Accents fold into readable URLs: this post lives at `/2025/cafe-creme-naive-resume/`.

    The first paragraph becomes the excerpt when there is no `more` marker.

    A second paragraph, shown only on the post page.

    """

    static let draft = """
    ---
    title: Unfinished thoughts
    date: 2025-04-02
    draft: true
    ---

    Drafts are built only with `lectern build --drafts`.

    """

    static let about = """
    ---
    title: About
    menu: 1
    ---

    This is a standalone page. Pages with a `menu` number appear in the site navigation.

    """

    static let logo = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60" role="img" aria-label="Lectern">
    <rect width="120" height="60" rx="8" fill="#0b5fbf"/>
    <text x="60" y="38" font-family="Georgia, serif" font-size="22" fill="#fff" text-anchor="middle">Lectern</text>
    </svg>

    """
}
