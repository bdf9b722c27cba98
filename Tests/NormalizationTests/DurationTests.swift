import Normalization
import Testing

@Suite("durations")
struct DurationTests {
  static let readable: [(text: String, iso: String)] = [
    ("20", "PT20M"), ("90 min", "PT1H30M"), ("1h30m", "PT1H30M"), ("1 h 30 min", "PT1H30M"), ("1:30", "PT1H30M"),
    ("PT20M", "PT20M"), ("PT0H30M", "PT30M"), ("P0DT1H20M", "PT1H20M"), ("P0DT0H30M", "PT30M"),
    ("P0Y0M0DT0H45M", "PT45M"), ("PT1500S", "PT25M"), ("PT90M", "PT1H30M"), ("P1D", "PT24H"), ("P1DT2H", "PT26H"),
    ("P1W", "PT168H"), ("pt1m30s", "PT1M30S"), ("PT 1H 5M", "PT1H5M"),
  ]

  @Test(arguments: readable)
  func readsWhatPeopleTypeAndPagesPublish(text: String, iso: String) {
    #expect(Durations.iso8601(text) == iso)
  }

  /// Free text as Paprika and other recipe apps store times.
  static let spoken: [(text: String, iso: String)] = [
    ("1 hr 20 mins", "PT1H20M"), ("1 hour", "PT1H"), ("45 min", "PT45M"), ("1h30", "PT1H30M"), ("1 hour 30", "PT1H30M"),
    ("2 hours", "PT2H"), ("1.5 hours", "PT1H30M"), ("1 hr. 20 min.", "PT1H20M"), ("1 hour and 20 minutes", "PT1H20M"),
    ("2 days", "PT48H"), ("1 day 2 hrs", "PT26H"), ("30 seconds", "PT30S"), ("10 Minutes", "PT10M"), ("3 HRS", "PT3H"),
  ]

  @Test(arguments: spoken)
  func readsTimesAsRecipeAppsWriteThem(text: String, iso: String) {
    #expect(Durations.iso8601(text) == iso)
  }

  @Test(arguments: ["overnight", "1h30x", "1..5 hours", "h", "about an hour", "20-30 min", "1.2.3 hours", "min 5"])
  func refusesFreeTextThatIsNotATime(text: String) {
    #expect(Durations.seconds(text) == nil)
  }

  @Test(arguments: ["PT 35 minutes", "-PT5M", "PT-5M", "P", "PT", "P1Y", "P2M", "P0DT", "soon", "1:75", "-3", "PT5X"])
  func refusesWhatIsNotADuration(text: String) {
    #expect(Durations.seconds(text) == nil)
    #expect(Durations.iso8601(text) == nil)
  }

  @Test func zeroMeansUnknown() {
    #expect(Durations.seconds("PT0S") == 0)
    #expect(Durations.iso8601("PT0S") == nil)
    #expect(Durations.iso8601("P0DT0H0M") == nil)
  }

  @Test func hugeValuesAreRefusedWithoutOverflow() {
    #expect(Durations.seconds("PT99999999999999999999H") == nil)
    #expect(Durations.seconds("P9999999999999D") == nil)
    #expect(Durations.seconds("P31D")! > Durations.maximumSeconds)
  }
}
