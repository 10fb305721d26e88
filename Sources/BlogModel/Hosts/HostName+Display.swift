import Foundation

extension HostName {
    /// A host as people should see it: in Unicode when each label is written in one script (or
    /// Han with Kana or Hangul, as Japanese and Korean names are), else in its `xn--` form — the
    /// rule browsers apply, so `bаd.example` with a Cyrillic а never passes for `bad.example`.
    public static func display(_ host: String) -> String {
        guard !host.allSatisfy(\.isASCII) else { return host.lowercased() }
        let ascii = normalized(host) ?? host
        let mixed = host.lowercased().split(separator: ".").contains { label in
            let scripts = Set(label.unicodeScalars.compactMap(script))
            return scripts.count > 1 && !scripts.isSubset(of: [.han, .kana, .latin]) && !scripts.isSubset(of: [.han, .hangul, .latin])
        }
        return mixed ? ascii : host.lowercased()
    }

    enum Script { case latin, greek, cyrillic, armenian, hebrew, arabic, han, kana, hangul, other }

    /// The script of a letter by its block; digits, hyphens and marks belong to none.
    static func script(_ scalar: Unicode.Scalar) -> Script? {
        switch scalar.value {
        case 0x30...0x39, 0x2D, 0x300...0x36F: return nil
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        case 0x400...0x52F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x530...0x58F: return .armenian
        case 0x590...0x5FF: return .hebrew
        case 0x600...0x6FF, 0x750...0x77F: return .arabic
        case 0x3040...0x30FF, 0x31F0...0x31FF: return .kana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF: return .han
        case 0x1100...0x11FF, 0xAC00...0xD7AF: return .hangul
        default: return .other
        }
    }
}
