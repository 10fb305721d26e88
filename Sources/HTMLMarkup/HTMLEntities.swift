/// Character references in HTML text and attribute values: numeric ones, every HTML 4 name and
/// the HTML 5 names that blog and fediverse software emits. Decoding happens once, when the HTML
/// is read, so `&amp;lt;` stays the text `&lt;`. An unknown name stays as written. Shared by the
/// sanitizer (remote HTML) and the importer (old blogs' HTML).
public enum HTMLEntities {
    /// Names that browsers also accept without the `;` (only the few that matter in practice).
    private static let legacy: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]

    /// The text of `bytes` (UTF-8) with its references decoded.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        return decode(String(decoding: bytes, as: UTF8.self))
    }

    public static func decode(_ text: some StringProtocol) -> String {
        guard text.contains("&") else { return String(text) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), let (replacement, end) = reference(bytes, at: index) {
                output += replacement.utf8
                index = end
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The reference starting at `start` ("&"), and the index after it.
    private static func reference(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        var cursor = start + 1
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex = cursor < bytes.count && (bytes[cursor] | 0x20) == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < bytes.count, cursor - digitsStart < 8, let digit = hexValue(bytes[cursor]), hex || digit < 10 {
                value = value * (hex ? 16 : 10) + UInt32(digit)
                cursor += 1
            }
            guard cursor > digitsStart else { return nil }
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";") { cursor += 1 }
            // NUL, surrogates and out-of-range values become U+FFFD; 0x80-0x9F are Windows-1252, as browsers read them.
            if let mapped = windows1252[value] { return (mapped, cursor) }
            let scalar = Unicode.Scalar(value).flatMap { value == 0 ? nil : $0 } ?? "\u{FFFD}"
            return (String(Character(scalar)), cursor)
        }
        let nameStart = cursor
        while cursor < bytes.count, cursor - nameStart < 32, isAlphanumeric(bytes[cursor]) { cursor += 1 }
        guard cursor > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";"), let text = named[name] { return (text, cursor + 1) }
        if legacy.contains(name), let text = named[name] { return (text, cursor) }
        return nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 48 && byte <= 57)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 97...102: return byte - 87
        case 65...70: return byte - 55
        default: return nil
        }
    }

    private static let windows1252: [UInt32: String] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{2C6}", 0x89: "\u{2030}", 0x8A: "\u{160}", 0x8B: "\u{2039}", 0x8C: "\u{152}",
        0x8E: "\u{17D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{2DC}", 0x99: "\u{2122}", 0x9A: "\u{161}", 0x9B: "\u{203A}",
        0x9C: "\u{153}", 0x9E: "\u{17E}", 0x9F: "\u{178}",
    ]

    public static let named: [String: String] = [
        "AElig": "\u{C6}", "Aacute": "\u{C1}", "Acirc": "\u{C2}", "Agrave": "\u{C0}", "Alpha": "\u{391}",
        "ApplyFunction": "\u{2061}", "Aring": "\u{C5}", "Atilde": "\u{C3}", "Auml": "\u{C4}", "Beta": "\u{392}",
        "COPY": "\u{A9}", "Ccedil": "\u{C7}", "Chi": "\u{3A7}", "Dagger": "\u{2021}", "Delta": "\u{394}",
        "DoubleRightArrow": "\u{21D2}", "ETH": "\u{D0}", "Eacute": "\u{C9}", "Ecirc": "\u{CA}", "Egrave": "\u{C8}",
        "Epsilon": "\u{395}", "Eta": "\u{397}", "Euml": "\u{CB}", "Gamma": "\u{393}", "Hat": "^", "Iacute": "\u{CD}",
        "Icirc": "\u{CE}", "Igrave": "\u{CC}", "InvisibleTimes": "\u{2062}", "Iota": "\u{399}", "Iuml": "\u{CF}",
        "Kappa": "\u{39A}", "Lambda": "\u{39B}", "Leftarrow": "\u{21D0}", "MediumSpace": "\u{205F}", "Mu": "\u{39C}",
        "NewLine": "\u{A}", "NoBreak": "\u{2060}", "Ntilde": "\u{D1}", "Nu": "\u{39D}", "OElig": "\u{152}",
        "Oacute": "\u{D3}", "Ocirc": "\u{D4}", "Ograve": "\u{D2}", "Omega": "\u{3A9}", "Omicron": "\u{39F}",
        "Oslash": "\u{D8}", "Otilde": "\u{D5}", "Ouml": "\u{D6}", "Phi": "\u{3A6}", "Pi": "\u{3A0}",
        "Prime": "\u{2033}", "Psi": "\u{3A8}", "REG": "\u{AE}", "ReverseElement": "\u{220B}", "Rho": "\u{3A1}",
        "Rightarrow": "\u{21D2}", "Scaron": "\u{160}", "Sigma": "\u{3A3}", "THORN": "\u{DE}", "TRADE": "\u{2122}",
        "Tab": "\u{9}", "Tau": "\u{3A4}", "Theta": "\u{398}", "ThinSpace": "\u{2009}", "Uacute": "\u{DA}",
        "Ucirc": "\u{DB}", "Ugrave": "\u{D9}", "Upsilon": "\u{3A5}", "Uuml": "\u{DC}", "VeryThinSpace": "\u{200A}",
        "Xi": "\u{39E}", "Yacute": "\u{DD}", "Yuml": "\u{178}", "ZeroWidthSpace": "\u{200B}", "Zeta": "\u{396}",
        "aacute": "\u{E1}", "acirc": "\u{E2}", "acute": "\u{B4}", "aelig": "\u{E6}", "af": "\u{2061}",
        "agrave": "\u{E0}", "alefsym": "\u{2135}", "alpha": "\u{3B1}", "amp": "&", "and": "\u{2227}",
        "ang": "\u{2220}", "angst": "\u{C5}", "apos": "'", "approx": "\u{2248}", "aring": "\u{E5}", "ast": "*",
        "asymp": "\u{2248}", "atilde": "\u{E3}", "auml": "\u{E4}", "backprime": "\u{2035}", "bdquo": "\u{201E}",
        "beta": "\u{3B2}", "bigstar": "\u{2605}", "blacklozenge": "\u{29EB}", "bprime": "\u{2035}",
        "brvbar": "\u{A6}", "bsol": "\u{5C}", "bull": "\u{2022}", "bullet": "\u{2022}", "cap": "\u{2229}",
        "ccedil": "\u{E7}", "cedil": "\u{B8}", "cent": "\u{A2}", "centerdot": "\u{B7}", "check": "\u{2713}",
        "checkmark": "\u{2713}", "chi": "\u{3C7}", "circ": "\u{2C6}", "circledR": "\u{AE}", "clubs": "\u{2663}",
        "colon": ":", "comma": ",", "commat": "@", "cong": "\u{2245}", "copy": "\u{A9}", "copysr": "\u{2117}",
        "crarr": "\u{21B5}", "cross": "\u{2717}", "cup": "\u{222A}", "curren": "\u{A4}", "dArr": "\u{21D3}",
        "dagger": "\u{2020}", "darr": "\u{2193}", "dash": "\u{2010}", "ddagger": "\u{2021}", "deg": "\u{B0}",
        "delta": "\u{3B4}", "diams": "\u{2666}", "die": "\u{A8}", "div": "\u{F7}", "divide": "\u{F7}", "dollar": "$",
        "dot": "\u{2D9}", "eacute": "\u{E9}", "ecirc": "\u{EA}", "egrave": "\u{E8}", "ell": "\u{2113}",
        "empty": "\u{2205}", "emsp": "\u{2003}", "emsp13": "\u{2004}", "emsp14": "\u{2005}", "ensp": "\u{2002}",
        "epsilon": "\u{3B5}", "equals": "=", "equiv": "\u{2261}", "eta": "\u{3B7}", "eth": "\u{F0}",
        "euml": "\u{EB}", "euro": "\u{20AC}", "excl": "!", "exist": "\u{2203}", "female": "\u{2640}", "fjlig": "fj",
        "flat": "\u{266D}", "fnof": "\u{192}", "forall": "\u{2200}", "frac12": "\u{BD}", "frac13": "\u{2153}",
        "frac14": "\u{BC}", "frac15": "\u{2155}", "frac18": "\u{215B}", "frac23": "\u{2154}", "frac34": "\u{BE}",
        "frac38": "\u{215C}", "frasl": "\u{2044}", "gamma": "\u{3B3}", "ge": "\u{2265}", "geq": "\u{2265}",
        "grave": "`", "gt": ">", "hArr": "\u{21D4}", "hairsp": "\u{200A}", "half": "\u{BD}", "harr": "\u{2194}",
        "hbar": "\u{210F}", "hearts": "\u{2665}", "hellip": "\u{2026}", "hookleftarrow": "\u{21A9}",
        "hyphen": "\u{2010}", "iacute": "\u{ED}", "ic": "\u{2063}", "icirc": "\u{EE}", "iexcl": "\u{A1}",
        "iff": "\u{21D4}", "igrave": "\u{EC}", "image": "\u{2111}", "infin": "\u{221E}", "int": "\u{222B}",
        "iota": "\u{3B9}", "iquest": "\u{BF}", "isin": "\u{2208}", "it": "\u{2062}", "iuml": "\u{EF}",
        "kappa": "\u{3BA}", "lArr": "\u{21D0}", "lambda": "\u{3BB}", "lang": "\u{2329}", "laquo": "\u{AB}",
        "larr": "\u{2190}", "lbrace": "{", "lbrack": "[", "lceil": "\u{2308}", "lcub": "{", "ldquo": "\u{201C}",
        "ldquor": "\u{201E}", "le": "\u{2264}", "leftarrow": "\u{2190}", "leq": "\u{2264}", "lfloor": "\u{230A}",
        "lowast": "\u{2217}", "lowbar": "_", "loz": "\u{25CA}", "lozenge": "\u{25CA}", "lpar": "(",
        "lrm": "\u{200E}", "lsaquo": "\u{2039}", "lsqb": "[", "lsquo": "\u{2018}", "lsquor": "\u{201A}", "lt": "<",
        "macr": "\u{AF}", "male": "\u{2642}", "malt": "\u{2720}", "maltese": "\u{2720}", "mapsto": "\u{21A6}",
        "mdash": "\u{2014}", "micro": "\u{B5}", "middot": "\u{B7}", "minus": "\u{2212}", "mldr": "\u{2026}",
        "mp": "\u{2213}", "mu": "\u{3BC}", "nabla": "\u{2207}", "natural": "\u{266E}", "nbsp": "\u{A0}",
        "ndash": "\u{2013}", "ne": "\u{2260}", "nearr": "\u{2197}", "ni": "\u{220B}", "nldr": "\u{2025}",
        "not": "\u{AC}", "notin": "\u{2209}", "nsub": "\u{2284}", "ntilde": "\u{F1}", "nu": "\u{3BD}", "num": "#",
        "numsp": "\u{2007}", "oacute": "\u{F3}", "ocirc": "\u{F4}", "oelig": "\u{153}", "ograve": "\u{F2}",
        "ohm": "\u{3A9}", "oline": "\u{203E}", "omega": "\u{3C9}", "omicron": "\u{3BF}", "oplus": "\u{2295}",
        "or": "\u{2228}", "ordf": "\u{AA}", "ordm": "\u{BA}", "oslash": "\u{F8}", "otilde": "\u{F5}",
        "otimes": "\u{2297}", "ouml": "\u{F6}", "para": "\u{B6}", "part": "\u{2202}", "percnt": "%", "period": ".",
        "permil": "\u{2030}", "perp": "\u{22A5}", "phi": "\u{3C6}", "phone": "\u{260E}", "pi": "\u{3C0}",
        "piv": "\u{3D6}", "planck": "\u{210F}", "plus": "+", "plusmn": "\u{B1}", "pm": "\u{B1}", "pound": "\u{A3}",
        "prime": "\u{2032}", "prod": "\u{220F}", "prop": "\u{221D}", "psi": "\u{3C8}", "puncsp": "\u{2008}",
        "quest": "?", "quot": "\u{22}", "rArr": "\u{21D2}", "radic": "\u{221A}", "rang": "\u{232A}",
        "raquo": "\u{BB}", "rarr": "\u{2192}", "rbrace": "}", "rbrack": "]", "rceil": "\u{2309}", "rcub": "}",
        "rdquo": "\u{201D}", "real": "\u{211C}", "reg": "\u{AE}", "rfloor": "\u{230B}", "rho": "\u{3C1}",
        "rightarrow": "\u{2192}", "rlm": "\u{200F}", "rpar": ")", "rsaquo": "\u{203A}", "rsqb": "]",
        "rsquo": "\u{2019}", "rsquor": "\u{2019}", "sbquo": "\u{201A}", "scaron": "\u{161}", "sdot": "\u{22C5}",
        "searr": "\u{2198}", "sect": "\u{A7}", "semi": ";", "sext": "\u{2736}", "sharp": "\u{266F}", "shy": "\u{AD}",
        "sigma": "\u{3C3}", "sigmaf": "\u{3C2}", "sim": "\u{223C}", "sol": "/", "spades": "\u{2660}",
        "squ": "\u{25A1}", "square": "\u{25A1}", "star": "\u{2606}", "starf": "\u{2605}", "sub": "\u{2282}",
        "sube": "\u{2286}", "sum": "\u{2211}", "sup": "\u{2283}", "sup1": "\u{B9}", "sup2": "\u{B2}",
        "sup3": "\u{B3}", "supe": "\u{2287}", "szlig": "\u{DF}", "tau": "\u{3C4}", "there4": "\u{2234}",
        "theta": "\u{3B8}", "thetasym": "\u{3D1}", "thinsp": "\u{2009}", "thorn": "\u{FE}", "tilde": "\u{2DC}",
        "times": "\u{D7}", "tprime": "\u{2034}", "trade": "\u{2122}", "uArr": "\u{21D1}", "uacute": "\u{FA}",
        "uarr": "\u{2191}", "ucirc": "\u{FB}", "ugrave": "\u{F9}", "uml": "\u{A8}", "upsih": "\u{3D2}",
        "upsilon": "\u{3C5}", "uuml": "\u{FC}", "verbar": "|", "vert": "|", "weierp": "\u{2118}", "xi": "\u{3BE}",
        "yacute": "\u{FD}", "yen": "\u{A5}", "yuml": "\u{FF}", "zeta": "\u{3B6}", "zwj": "\u{200D}",
        "zwnj": "\u{200C}",
    ]
}
