/// Plural endings that are singularized even at the end of a longer word
/// (meatloaves → meatloaf, penknives → penknife, bayleaves → bayleaf).
///
/// Only endings that no unrelated word shares belong here: "lives" does not (olives).
package enum CompoundPluralSuffixes {
  package static let table: [(plural: String, singular: String)] = [
    ("leaves", "leaf"),
    ("loaves", "loaf"),
    ("knives", "knife"),
    ("halves", "half"),
  ]
}
