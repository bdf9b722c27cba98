/// A saved page's elements as a tree, built by a small tag tokenizer rather than an HTML
/// parser (none is in the package mirror; Docs/IMPORT.md, "Microdata and RDFa"). What
/// microdata and RDFa need of a page is which element holds which, their attributes and
/// their markup; the tokenizer gives that the way browsers do for the markup recipe pages
/// write:
///
/// - comments, `<!DOCTYPE …>`, `<?…>` and stray `</…` are skipped; the text of `script`,
///   `style`, `textarea` and `title` is not read for tags;
/// - void elements (`meta`, `link`, `img`, `br`, …) hold nothing;
/// - an end tag closes the nearest open element of its name and every element opened
///   inside it; an end tag with no open element of its name is ignored;
/// - the end tags pages leave out are implied where HTML implies them: a `li` closes the
///   open `li` of its list, `dt`/`dd` the open `dt`/`dd`, `tr` the open `tr`, `td`/`th`
///   the open cell, `option` the open `option`, and a block element the open `p`;
/// - what is still open at the end of the page ends there.
///
/// Bounded: the tokenizer reads each byte a fixed number of times, keeps only the
/// attributes it is asked for, and stops at `maximumElements` (the tree says so).
enum HTMLTagScanner {
  static func tree(_ text: String, keeping attributes: Set<String>, maximumElements: Int) -> HTMLTree {
    var builder = Builder(bytes: Array(text.utf8), keep: .only(attributes), maximumElements: maximumElements)
    builder.run()
    return builder.tree
  }

  private struct Builder {
    var tree: HTMLTree
    let keep: HTMLAttributes.Keep
    let maximumElements: Int
    /// The open elements, outermost first.
    var open: [Int] = []
    /// How many elements of each name are open: an end tag or implied end with none to
    /// close costs nothing.
    var openCount: [String: Int] = [:]

    init(bytes: [UInt8], keep: HTMLAttributes.Keep, maximumElements: Int) {
      tree = HTMLTree(bytes: bytes)
      self.keep = keep
      self.maximumElements = maximumElements
    }

    var bytes: [UInt8] { tree.bytes }

    mutating func run() {
      var index = 0
      let count = bytes.count
      while index < count {
        guard let tagStart = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else { break }
        index = tagStart + 1
        guard index < count else { break }
        let next = bytes[index]
        if next == UInt8(ascii: "!") {
          index = startsComment(at: tagStart) ? end(of: Array("-->".utf8), from: tagStart + 4) : afterGreaterThan(from: index)
        } else if next == UInt8(ascii: "?") {
          index = afterGreaterThan(from: index)
        } else if next == UInt8(ascii: "/") {
          guard index + 1 < count, isLetter(bytes[index + 1]) else {
            index = afterGreaterThan(from: index)
            continue
          }
          let nameEnd = nameEnd(from: index + 1)
          let name = lowercased(index + 1..<nameEnd)
          let (_, after) = HTMLAttributes.read(bytes, from: nameEnd, keeping: .none)
          close(name, at: tagStart)
          index = after
        } else if isLetter(next) {
          let nameEnd = nameEnd(from: index)
          let name = lowercased(index..<nameEnd)
          let (attributes, after) = HTMLAttributes.read(bytes, from: nameEnd, keeping: keep)
          index = after
          guard tree.elements.count < maximumElements else {
            tree.isTruncated = true
            break
          }
          start(name, attributes: attributes, at: tagStart, contentStart: after)
          if Self.rawText.contains(name) {
            // The element's text runs to its end tag, tags or not.
            let close = find(endTag: name, from: after) ?? count
            closeAll(from: open.count - 1, at: close)
            index = close < count ? afterGreaterThan(from: close) : count
          }
        }
      }
      closeAll(from: 0, at: count)
    }

    // MARK: The tree

    private mutating func start(_ name: String, attributes: [String: String], at position: Int, contentStart: Int) {
      impliedEnds(before: name, at: position)
      let index = tree.elements.count
      tree.elements.append(
        HTMLTree.Element(
          name: name, attributes: attributes, parent: open.last ?? -1, subtreeEnd: index + 1, contentStart: contentStart,
          contentEnd: contentStart))
      if Self.void.contains(name) { return }
      open.append(index)
      openCount[name, default: 0] += 1
    }

    /// Closes the nearest open element called `name` and everything opened inside it.
    private mutating func close(_ name: String, at position: Int) {
      guard openCount[name, default: 0] > 0, let depth = open.lastIndex(where: { tree.elements[$0].name == name }) else { return }
      closeAll(from: depth, at: position)
    }

    /// Ends the open elements from `depth` up, innermost first.
    private mutating func closeAll(from depth: Int, at position: Int) {
      for element in open[depth...].reversed() {
        tree.elements[element].contentEnd = max(tree.elements[element].contentStart, position)
        tree.elements[element].subtreeEnd = tree.elements.count
        openCount[tree.elements[element].name, default: 1] -= 1
      }
      open.removeSubrange(depth...)
    }

    /// The end tags HTML implies before a start tag: the open element it cannot sit in is
    /// closed, when no element that bounds it is open in between. Looked for among the
    /// innermost ``impliedEndReach`` open elements only, so a page nested deeper than any
    /// real one does not make each tag search all of it.
    private mutating func impliedEnds(before name: String, at position: Int) {
      let closes: Set<String>, bounds: Set<String>
      switch name {
      case "li": (closes, bounds) = (["li"], ["ul", "ol", "menu", "table"])
      case "dt", "dd": (closes, bounds) = (["dt", "dd"], ["dl", "table"])
      case "tr": (closes, bounds) = (["tr"], ["table", "thead", "tbody", "tfoot"])
      case "td", "th": (closes, bounds) = (["td", "th"], ["tr", "table"])
      case "option": (closes, bounds) = (["option"], ["select", "datalist"])
      case _ where Self.closesParagraph.contains(name): (closes, bounds) = (["p"], Self.paragraphBounds)
      default: return
      }
      guard closes.contains(where: { openCount[$0, default: 0] > 0 }) else { return }
      for depth in open.indices.reversed().prefix(Self.impliedEndReach) {
        let openName = tree.elements[open[depth]].name
        if closes.contains(openName) { return closeAll(from: depth, at: position) }
        if bounds.contains(openName) { return }
      }
    }

    /// How deep into the open elements an implied end is looked for: the depth past which
    /// browsers stop nesting elements (Chromium's 512).
    static let impliedEndReach = 512

    static let void: Set<String> = [
      "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    static let rawText: Set<String> = ["script", "style", "textarea", "title"]
    static let closesParagraph: Set<String> = [
      "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form",
      "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul",
    ]
    /// Elements a `p` inside them does not reach past.
    static let paragraphBounds: Set<String> = ["button", "td", "th", "table", "li", "dd", "dt", "div", "section", "article", "blockquote"]

    // MARK: Reading the bytes

    private func startsComment(at open: Int) -> Bool {
      open + 3 < bytes.count && bytes[open + 2] == UInt8(ascii: "-") && bytes[open + 3] == UInt8(ascii: "-")
    }

    private func afterGreaterThan(from start: Int) -> Int {
      (bytes[start...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
    }

    /// The index after `needle`, or the end when it never comes.
    private func end(of needle: [UInt8], from start: Int) -> Int {
      var index = start
      while index + needle.count <= bytes.count {
        if bytes[index] == needle[0], needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) { return index + needle.count }
        index += 1
      }
      return bytes.count
    }

    /// Where `</name` starts (any letter case) after `start`, followed by a space, `/` or `>`.
    private func find(endTag name: String, from start: Int) -> Int? {
      let needle = Array("</\(name)".utf8)
      var index = start
      while index + needle.count <= bytes.count {
        if bytes[index] == UInt8(ascii: "<"), needle.indices.allSatisfy({ HTMLAttributes.lowered(bytes[index + $0]) == needle[$0] }) {
          let after = index + needle.count
          if after == bytes.count || HTMLAttributes.isSpace(bytes[after]) || bytes[after] == UInt8(ascii: "/")
            || bytes[after] == UInt8(ascii: ">")
          {
            return index
          }
        }
        index += 1
      }
      return nil
    }

    /// A tag name runs to a space, `/` or `>`.
    private func nameEnd(from start: Int) -> Int {
      var index = start
      while index < bytes.count, !HTMLAttributes.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"),
        bytes[index] != UInt8(ascii: ">")
      {
        index += 1
      }
      return index
    }

    private func lowercased(_ range: Range<Int>) -> String { String(decoding: bytes[range].map(HTMLAttributes.lowered), as: UTF8.self) }
    private func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
  }
}

/// The elements of a page in document order, each with the attributes its reader asked
/// for and where its markup is. An element's descendants are the elements after it up to
/// its `subtreeEnd`.
struct HTMLTree {
  struct Element {
    /// Lowercased.
    var name: String
    var attributes: [String: String]
    /// The enclosing element's index; -1 at the top.
    var parent: Int
    /// The index after the element's last descendant.
    var subtreeEnd: Int
    /// The element's markup, between its start tag and its end (the UTF-8 offsets).
    var contentStart: Int
    var contentEnd: Int
  }

  let bytes: [UInt8]
  var elements: [Element] = []
  /// Whether the page held more elements than were read.
  var isTruncated = false

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// The markup inside an element, tags and all, as written.
  func markup(of index: Int) -> String {
    let element = elements[index]
    return String(decoding: bytes[element.contentStart..<element.contentEnd], as: UTF8.self)
  }

  func markupLength(of index: Int) -> Int { elements[index].contentEnd - elements[index].contentStart }
}
