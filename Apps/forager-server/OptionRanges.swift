import ArgumentParser

/// Checks an option's value against the range its help text states, when the command line
/// is parsed (before any command connects or starts anything).
/// - Throws: a `ValidationError` naming the option, its range and the value given.
func check(_ value: Int, in range: ClosedRange<Int>, option: String) throws {
  guard range.contains(value) else {
    throw ValidationError("\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound); got \(value)")
  }
}
