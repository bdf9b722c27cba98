/// Words that end the head part of a food phrase: in "X of Y", "X with Y", "X in Y" the
/// head noun is the last word of X ("cloves of garlic" → "clove of garlic",
/// "hearts of palm" → "heart of palm", "tomatoes in juice" → "tomato in juice").
package enum HeadNounConnectors {
  package static let words: Set<String> = ["of", "with", "in"]
}
