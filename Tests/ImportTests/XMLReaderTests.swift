import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Import

/// The importer's own XML reader: the same trees as Foundation's libxml2-based parser on real
/// feeds and exports, and what it forgives, refuses and never expands.
@Suite struct XMLReaderTests {
    private func parse(_ text: String) throws -> XMLTree { try XMLReader.parse(Data(text.utf8)) }

    private func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: ["wordpress-export.xml", "atom-feed.xml", "medium-feed.rss", "programmer-blog.rss"])
    func fixturesReadAsLibxml2ReadsThem(_ fixture: String) throws {
        let data = try Data(contentsOf: ImportTestSite.fixture(fixture))
        let ours = try XMLReader.parse(data)
        let reference = try ReferenceTree.parse(data)
        #expect(dump(ours) == dump(reference))
        #expect(dump(ours).count > 2_000)
    }

    @Test func referencesCDATAAndAttributes() throws {
        let root = try parse("""
            <a t="x&amp;y&#10;z" u='line
            break'>caf&eacute;&nbsp;&amp; &lt;b&gt; &#x1F600; &#233; AT&T &bogus; <![CDATA[<p>&amp;</p>]]></a>
            """)
        #expect(root.text == "café\u{A0}& <b> 😀 é AT&T &bogus; <p>&amp;</p>")
        #expect(root.attributes["t"] == "x&y\nz")  // a reference keeps its line break, a literal one is a space
        #expect(root.attributes["u"] == "line break")
    }

    @Test func commentsInstructionsAndTheDocumentTypeAreSkipped() throws {
        let root = try parse("""
            <?xml version="1.0"?>
            <!-- a <comment> -->
            <!DOCTYPE rss [ <!ENTITY x "a>b"> <!ELEMENT rss ANY> ]>
            <rss><?php echo 1; ?><!-- inside --><title>T</title></rss>
            """)
        #expect(root.name == "rss" && root.value("title") == "T" && root.text == "T")
        // Quotes and brackets in a comment or an instruction of the internal subset are not syntax.
        #expect(try parse("<!DOCTYPE r [<!-- don't ] --><?pi ' ] ?>]><r>x</r>").text == "x")
    }

    @Test func nestingIsLimitedAsLibxml2LimitsIt() throws {
        let deepest = String(repeating: "<a>", count: XMLReader.maximumDepth) + String(repeating: "</a>", count: XMLReader.maximumDepth)
        #expect(error(deepest) == "no error")
        // Each level declaring a prefix: without the limit, scopes grew with the square of the depth.
        let bomb = (0..<30_000).map { "<a xmlns:p\($0)=\"u\">" }.joined()
        #expect(error(bomb) == "the source does not parse: line 1: elements nested deeper than 256 levels")
    }

    @Test func declaredEntitiesAreNeverExpanded() throws {
        var laughs = "<!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        laughs += "]><lolz>&lol9;</lolz>"
        let root = try parse(laughs)
        #expect(root.text == "&lol9;")
        #expect(error("<!DOCTYPE x SYSTEM \"file:///etc/passwd\"><x>&ext;</x>") == "no error")
        #expect(try parse("<!DOCTYPE x SYSTEM \"file:///etc/passwd\"><x>&ext;</x>").text == "&ext;")
    }

    @Test func namespacesAreQualifiedByTheirKeyWhateverThePrefix() throws {
        let root = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:c="http://purl.org/rss/1.0/modules/content/">
            <entry><c:encoded>x</c:encoded><other xmlns="urn:x"><leaf/></other></entry></feed>
            """)
        #expect(root.name == "atom:feed")
        let entry = try #require(root.child("atom:entry"))
        #expect(entry.child("content:encoded")?.text == "x")
        #expect(entry.child("urn:x:other")?.child("urn:x:leaf") != nil)
    }

    @Test func lineEndsAndControlCharactersAreCleaned() throws {
        let root = try parse("<a b=\"1\u{01}2\">one\r\ntwo\rthree\u{0B}&#1;<![CDATA[four\r\n]]></a>")
        #expect(root.text == "one\ntwo\nthreefour\n")
        #expect(root.attributes["b"] == "12")
        #expect(try parse("<a b=\"x\r\ny\"/>").attributes["b"] == "x y")
    }

    @Test func encodingsByMarkOrDeclaration() throws {
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>caf".utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Array("</t>".utf8))
        #expect(try XMLReader.parse(latin1).text == "café")
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("<t>ü</t>".data(using: .utf16LittleEndian)!)
        #expect(try XMLReader.parse(utf16).text == "ü")
        let unmarked = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><t>ü</t>"
        #expect(try XMLReader.parse(unmarked.data(using: .utf16BigEndian)!).text == "ü")
        #expect(try XMLReader.parse(unmarked.data(using: .utf16LittleEndian)!).text == "ü")
        #expect(try XMLReader.parse(Data([0xEF, 0xBB, 0xBF] + Array("<t>x</t>".utf8))).text == "x")
        var broken = Data("<t>\nok\n".utf8)
        broken.append(0xE9)
        broken.append(contentsOf: Array("</t>".utf8))
        #expect(throws: ImportError.unreadable("line 3: not UTF-8 text (declare the file's encoding, or convert it)")) {
            try XMLReader.parse(broken)
        }
        #expect(error("<?xml version='1.0' encoding='EBCDIC-CP-US'?><t/>").contains("ebcdic-cp-us is not supported"))
    }

    @Test func malformedDocumentsNameTheLine() {
        #expect(error("<rss>\n<item>\n</rss>") == "the source does not parse: line 3: </rss> closes <item>")
        #expect(error("<rss><channel><item>") == "the source does not parse: the XML ends inside <item> (a truncated file?)")
        #expect(error("<rss><item a=\"1\"") == "the source does not parse: the XML ends inside the tag <item> (a truncated file?)")
        #expect(error("<a/>\n<b/>") == "the source does not parse: line 2: a second root element <b>")
        #expect(error("hello <a/>") == "the source does not parse: line 1: text outside the root element")
        #expect(error("<a>\n\n<b c=1/></a>") == "the source does not parse: line 3: the value of c in <b> is not quoted")
        #expect(error("<a c='1' c='2'/>") == "the source does not parse: line 1: <a> has two c attributes")
        #expect(error("<a><!-- never closed</a>") == "the source does not parse: line 1: a comment that never ends")
        #expect(error("<a>< b</a>") == "the source does not parse: line 1: a '<' that starts no tag")
        #expect(error("</a>") == "the source does not parse: line 1: </a> closes no element")
        #expect(error("  \n") == "the source does not parse: no XML element in the file")
    }

    /// Names, attributes and text, one line per element or text run, indented by depth.
    private func dump(_ tree: XMLTree, depth: Int = 0) -> String {
        let indent = String(repeating: " ", count: depth)
        let attributes = tree.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.debugDescription)" }
        var lines = ["\(indent)<\(tree.name) \(attributes.joined(separator: " "))>"]
        for child in tree.children {
            switch child {
            case .element(let element): lines.append(dump(element, depth: depth + 1))
            case .text(let text): lines.append(indent + " " + text.debugDescription)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The same tree built by Foundation's `XMLParser` (libxml2), names qualified as the reader does.
private final class ReferenceTree: NSObject, XMLParserDelegate {
    private var root: XMLTree?
    private var stack: [XMLTree] = []
    private var namespaces = XMLNamespaces()

    static func parse(_ data: Data) throws -> XMLTree {
        let builder = ReferenceTree()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return root
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        let element = XMLTree(name: namespaces.open(elementName, attributes: attributes), attributes: attributes)
        if let parent = stack.last { parent.append(element: element) } else { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
        namespaces.close()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.append(text: string) }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.append(text: String(decoding: CDATABlock, as: UTF8.self))
    }
}
