import HTMLMarkup

/// The language of a code block, from the marks highlighters and editors leave on `<pre>`,
/// `<code>` and their wrappers: `class="language-x"`, `lang-x`, `hljs x`, `brush: x`,
/// `highlight-source-x`, `data-lang`/`lang` attributes, or a bare `class="x"` that names a
/// known language (GeSHi, Chroma, Rouge, Pygments, Prism, highlight.js, SyntaxHighlighter).
enum CodeLanguage {
    static func detect(pre: HTMLNode, code: HTMLNode?, wrappers: [HTMLNode]) -> String? {
        let own = [code, pre].compactMap { $0 }
        for element in own {
            for name in ["data-lang", "data-language", "lang", "language"] {
                if let value = element.attribute(name), let language = clean(value),
                   name.hasPrefix("data-") || known.contains(language) {
                    return language
                }
            }
        }
        for element in own + wrappers {
            if let language = fromClasses(element.attribute("class") ?? "", bareNames: own.contains { $0 === element }) {
                return language
            }
        }
        return nil
    }

    private static func fromClasses(_ attribute: String, bareNames: Bool) -> String? {
        if let range = attribute.range(of: "brush:") {
            let rest = attribute[range.upperBound...].drop(while: { $0 == " " })
            if let language = clean(String(rest.prefix(while: { !" ;".contains($0) }))) { return language }
        }
        let classes = attribute.split(whereSeparator: \.isWhitespace).map(String.init)
        for name in classes {
            for prefix in ["language-", "lang-", "highlight-source-", "highlight-"] where name.hasPrefix(prefix) {
                if let language = clean(String(name.dropFirst(prefix.count))) { return language }
            }
        }
        guard bareNames else { return nil }
        for name in classes {
            let lower = name.lowercased()
            if known.contains(lower) { return lower }
        }
        return nil
    }

    /// Lower-cased, without characters an info string cannot hold; nil when nothing is left or the
    /// value is a highlighter's own word (`none`, `plain`).
    private static func clean(_ value: String) -> String? {
        let language = String(value.lowercased().filter { $0.isLetter || $0.isNumber || "+#-_.".contains($0) })
        guard !language.isEmpty, !["none", "nohighlight", "plain", "default", "wrap", "linenums"].contains(language) else {
            return nil
        }
        return language
    }

    static let known: Set<String> = [
        "ada", "apache", "applescript", "arduino", "asm", "awk", "bash", "bat", "batch", "c", "c++", "clojure", "cmake",
        "cmd", "cobol", "coffee", "coffeescript", "console", "cpp", "crystal", "cs", "csharp", "css", "csv", "d", "dart",
        "delphi", "diff", "django", "docker", "dockerfile", "elixir", "elm", "erb", "erlang", "ex", "exs", "fish", "fortran",
        "fsharp", "gdscript", "glsl", "go", "golang", "gradle", "graphql", "groovy", "haml", "handlebars", "haskell", "hcl",
        "hs", "html", "http", "ini", "java", "javascript", "jinja", "js", "json", "jsonc", "jsx", "julia", "kotlin", "kt",
        "latex", "less", "liquid", "lisp", "llvm", "lua", "make", "makefile", "markdown", "matlab", "md", "mysql", "nasm",
        "nginx", "nim", "nix", "objc", "objectivec", "ocaml", "pascal", "perl", "php", "pgsql", "plaintext", "postgresql",
        "powershell", "prolog", "properties", "protobuf", "ps1", "pug", "puppet", "py", "python", "r", "racket", "rb",
        "regex", "ruby", "rust", "sass", "scala", "scheme", "scss", "sh", "shell", "solidity", "sql", "sqlite", "svelte",
        "swift", "tcl", "terraform", "tex", "text", "toml", "ts", "tsx", "twig", "txt", "typescript", "vb", "vbnet", "vhdl",
        "vim", "vue", "wasm", "x86asm", "xml", "yaml", "yml", "zig", "zsh",
    ]
}
