/// Singulars ending in -che (quiches → quiche). Any other -ches plural drops "es":
/// peaches → peach, sandwiches → sandwich.
package enum ChePluralNouns {
  package static let singulars: Set<String> = [
    "quiche", "brioche", "ganache", "mache", "tranche", "panache", "cache", "niche",
    "cliche", "creche", "avalanche", "moustache", "mustache", "headache", "pastiche",
    "psyche", "fiche", "gouache", "douche", "attache",
  ]
}
