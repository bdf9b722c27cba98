/// A one-line progress bar for a terminal: "\r[######              ] 3/10 shakshuka.html",
/// cleared when the work is done. Front ends write it to standard error, on a terminal only.
public enum ProgressBar {
  /// The bar's width in characters, between the brackets.
  static let width = 20

  /// The text that redraws the bar (a carriage return, the bar, the item, a clear-to-end);
  /// at the end, the text that erases it.
  public static func line(done: Int, total: Int, item: String) -> String {
    guard total > 0, done < total else { return "\r\u{1B}[K" }
    let filled = done * width / total
    let name = item.split(separator: "/").last.map(String.init) ?? item
    return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done + 1)/\(total) "
      + String(name.prefix(40)) + "\u{1B}[K"
  }
}
