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
