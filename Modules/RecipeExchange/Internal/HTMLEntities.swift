/// The named HTML entities recipe pages use: every ASCII punctuation mark (as attribute
/// values write them, `application&sol;ld&plus;json`), spaces, fractions, degrees and the
/// accented letters of Western European languages. Any character can also be written
/// by number (`&#189;`, `&#xBD;`), which ``HTMLText`` decodes without a table.
enum HTMLEntities {
  static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\u{22}", "apos": "'", "nbsp": "\u{A0}", "ensp": "\u{2002}",
    "emsp": "\u{2003}", "thinsp": "\u{2009}", "shy": "\u{AD}", "ndash": "\u{2013}", "mdash": "\u{2014}",
    "hellip": "\u{2026}", "lsquo": "\u{2018}", "rsquo": "\u{2019}", "sbquo": "\u{201A}", "ldquo": "\u{201C}",
    "rdquo": "\u{201D}", "bdquo": "\u{201E}", "laquo": "\u{AB}", "raquo": "\u{BB}", "bull": "\u{2022}",
    "middot": "\u{B7}", "deg": "\u{B0}", "times": "\u{D7}", "divide": "\u{F7}", "plusmn": "\u{B1}",
    "minus": "\u{2212}", "frac12": "\u{BD}", "frac14": "\u{BC}", "frac34": "\u{BE}", "frac13": "\u{2153}",
    "frac23": "\u{2154}", "frac15": "\u{2155}", "frac16": "\u{2159}", "frac18": "\u{215B}", "frac38": "\u{215C}",
    "frac58": "\u{215D}", "frac78": "\u{215E}", "sup1": "\u{B9}", "sup2": "\u{B2}", "sup3": "\u{B3}",
    "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}", "cent": "\u{A2}", "pound": "\u{A3}",
    "euro": "\u{20AC}", "yen": "\u{A5}", "sect": "\u{A7}", "para": "\u{B6}", "micro": "\u{B5}",
    "Agrave": "\u{C0}", "Aacute": "\u{C1}", "Acirc": "\u{C2}", "Atilde": "\u{C3}", "Auml": "\u{C4}",
    "Aring": "\u{C5}", "AElig": "\u{C6}", "Ccedil": "\u{C7}", "Egrave": "\u{C8}", "Eacute": "\u{C9}",
    "Ecirc": "\u{CA}", "Euml": "\u{CB}", "Igrave": "\u{CC}", "Iacute": "\u{CD}", "Icirc": "\u{CE}",
    "Iuml": "\u{CF}", "Ntilde": "\u{D1}", "Ograve": "\u{D2}", "Oacute": "\u{D3}", "Ocirc": "\u{D4}",
    "Otilde": "\u{D5}", "Ouml": "\u{D6}", "Oslash": "\u{D8}", "Ugrave": "\u{D9}", "Uacute": "\u{DA}",
    "Ucirc": "\u{DB}", "Uuml": "\u{DC}", "Yacute": "\u{DD}", "szlig": "\u{DF}", "agrave": "\u{E0}",
    "aacute": "\u{E1}", "acirc": "\u{E2}", "atilde": "\u{E3}", "auml": "\u{E4}", "aring": "\u{E5}",
    "aelig": "\u{E6}", "ccedil": "\u{E7}", "egrave": "\u{E8}", "eacute": "\u{E9}", "ecirc": "\u{EA}",
    "euml": "\u{EB}", "igrave": "\u{EC}", "iacute": "\u{ED}", "icirc": "\u{EE}", "iuml": "\u{EF}",
    "ntilde": "\u{F1}", "ograve": "\u{F2}", "oacute": "\u{F3}", "ocirc": "\u{F4}", "otilde": "\u{F5}",
    "ouml": "\u{F6}", "oslash": "\u{F8}", "ugrave": "\u{F9}", "uacute": "\u{FA}", "ucirc": "\u{FB}",
    "uuml": "\u{FC}", "yacute": "\u{FD}", "yuml": "\u{FF}", "OElig": "\u{152}", "oelig": "\u{153}",
    "Scaron": "\u{160}", "scaron": "\u{161}", "iexcl": "\u{A1}", "iquest": "\u{BF}", "ordf": "\u{AA}",
    "ordm": "\u{BA}", "prime": "\u{2032}", "Prime": "\u{2033}",
    // ASCII punctuation, by every name HTML gives it.
    "Tab": "\t", "NewLine": "\n", "excl": "!", "QUOT": "\u{22}", "num": "#", "dollar": "$", "percnt": "%", "AMP": "&",
    "lpar": "(", "rpar": ")", "ast": "*", "midast": "*", "plus": "+", "comma": ",", "period": ".", "sol": "/",
    "colon": ":", "semi": ";", "LT": "<", "equals": "=", "GT": ">", "quest": "?", "commat": "@", "lsqb": "[",
    "lbrack": "[", "bsol": "\\", "rsqb": "]", "rbrack": "]", "Hat": "^", "lowbar": "_", "UnderBar": "_", "grave": "`",
    "DiacriticalGrave": "`", "lcub": "{", "lbrace": "{", "verbar": "|", "vert": "|", "VerticalLine": "|", "rcub": "}",
    "rbrace": "}",
  ]

  /// The characters windows-1252 gives bytes 128–159, which a numeric reference in that
  /// range means (HTML's rule); the five bytes windows-1252 leaves undefined are
  /// themselves.
  static let windows1252: [Unicode.Scalar?] = [
    0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D, 0x17D, 0x8F,
    0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178,
  ].map { Unicode.Scalar(UInt32($0)) }
}
