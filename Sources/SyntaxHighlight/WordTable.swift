/// The words a language gives a class (keywords, literals, built-in types), looked up straight
/// from the input bytes: an open-addressing hash table over one byte buffer, so a lookup hashes
/// the slice and compares bytes, without building a `String` or an `Array`.
///
///     let table = WordTable([(words: "let var", cls: .keyword, next: .plain)], foldCase: false)
struct WordTable: Sendable {
    struct Entry: Sendable {
        fileprivate var offset: Int32 = 0
        fileprivate var length: UInt8 = 0
        /// The word's class.
        var cls: TokenClass = .plain
        /// The class of the word after it, `.plain` for none: `func` makes the next name a function.
        var next: TokenClass = .plain
    }

    private var storage: [UInt8] = []
    private var slots: [Entry]
    private var mask: Int
    /// Longer words cannot be in the table, so the lexer skips the lookup for them.
    private(set) var maxLength = 0
    /// Whether words were stored lowercased and are matched ignoring ASCII case (SQL).
    let foldCase: Bool

    /// `groups` are space-separated word lists; a word in a later group overrides an earlier one.
    /// Split as bytes: every language's tables are built on the first highlight of a process,
    /// and splitting by `Character` made that 1.4 ms of a one-post rebuild (`perf`).
    init(_ groups: [(words: String, cls: TokenClass, next: TokenClass)], foldCase: Bool) {
        self.foldCase = foldCase
        let words = groups.flatMap { group in Array(group.words.utf8).split(separator: 0x20).map { (Array($0), group) } }
        var capacity = 16
        while capacity < words.count * 2 { capacity *= 2 }
        slots = Array(repeating: Entry(), count: capacity)
        mask = capacity - 1
        for (word, group) in words {
            let bytes = foldCase ? word.map(Self.lowercased) : word
            let slot = probe(bytes)
            if slots[slot].length == 0 {
                slots[slot].offset = Int32(storage.count)
                slots[slot].length = UInt8(bytes.count)
                storage.append(contentsOf: bytes)
            }
            slots[slot].cls = group.cls
            slots[slot].next = group.next
            maxLength = max(maxLength, bytes.count)
        }
    }

    /// The entry for `bytes[start..<end]`, if the word is in the table.
    @inline(__always)
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Entry? {
        let length = end - start
        guard length <= maxLength else { return nil }
        var hash: UInt32 = 2_166_136_261
        for index in start..<end {
            hash = (hash ^ UInt32(foldCase ? Self.lowercased(bytes[index]) : bytes[index])) &* 16_777_619
        }
        var slot = Int(hash) & mask
        while slots[slot].length != 0 {
            let entry = slots[slot]
            if Int(entry.length) == length && matches(entry, bytes, start) { return entry }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private func matches(_ entry: Entry, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        let offset = Int(entry.offset)
        for index in 0..<Int(entry.length) {
            let byte = foldCase ? Self.lowercased(bytes[start + index]) : bytes[start + index]
            if storage[offset + index] != byte { return false }
        }
        return true
    }

    /// The slot holding `word`, or the empty slot where it belongs.
    private func probe(_ word: [UInt8]) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in word { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        var slot = Int(hash) & mask
        while slots[slot].length != 0 {
            let entry = slots[slot]
            if Int(entry.length) == word.count && storage[Int(entry.offset)..<Int(entry.offset) + word.count].elementsEqual(word) {
                return slot
            }
            slot = (slot + 1) & mask
        }
        return slot
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }
}
