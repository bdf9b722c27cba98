/// Singulars ending in -oe (sloes → sloe). Any other -oes plural drops "es":
/// tomatoes → tomato, potatoes → potato, mangoes → mango.
package enum OePluralNouns {
  package static let singulars: Set<String> = [
    "sloe", "roe", "aloe", "shoe", "toe", "hoe", "doe", "foe", "floe", "oboe", "canoe",
    "throe", "tiptoe", "mistletoe", "pekoe", "felloe",
  ]
}
