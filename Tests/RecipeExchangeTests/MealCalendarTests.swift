import Foundation
import Model
import Testing

@testable import RecipeExchange

/// The meal plan as RFC 5545 text: escaping, folding, events and their UIDs.
@Suite struct MealCalendarTests {
  static let stamp = Date(timeIntervalSince1970: 1_734_048_000)  // 2024-12-13T00:00:00Z
  static let dinner = MealCalendar.Meal(
    date: CivilDate(year: 2024, month: 12, day: 13)!, mealType: .dinner, recipes: ["Egg Fried Rice"], servings: 6,
    notes: "double the sauce; serve with chili, lime")

  @Test(arguments: [
    ("a;b,c\\d", "a\\;b\\,c\\\\d"), ("one\ntwo", "one\\ntwo"), ("one\r\ntwo", "one\\ntwo"), ("one\rtwo", "one\\ntwo"),
    ("tab\there", "tab\there"), ("bell\u{7}gone", "bellgone"), ("crème brûlée", "crème brûlée"),
  ])
  func textValuesAreEscaped(text: String, escaped: String) {
    #expect(ICalendarText.escape(text) == escaped)
  }

  @Test func aShortLineIsOneLineWithCRLF() {
    #expect(ICalendarText.fold("SUMMARY:Dinner") == "SUMMARY:Dinner\r\n")
  }

  @Test func longLinesFoldAt75OctetsWithALeadingSpace() {
    let line = "DESCRIPTION:" + String(repeating: "x", count: 200)
    let folded = ICalendarText.fold(line)
    let lines = folded.components(separatedBy: "\r\n").dropLast()
    #expect(lines.allSatisfy { $0.utf8.count <= 75 })
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
    #expect(lines.first?.utf8.count == 75)
    #expect(lines.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
  }

  @Test(arguments: ["é", "🍳", "👩‍🍳", "e\u{301}"])
  func foldingNeverSplitsAUTF8SequenceOrACharacter(piece: String) {
    for prefix in 0..<6 {
      let line = "SUMMARY:" + String(repeating: "a", count: prefix) + String(repeating: piece, count: 60)
      let lines = ICalendarText.fold(line).components(separatedBy: "\r\n").dropLast()
      for folded in lines {
        #expect(folded.utf8.count <= 75)
        #expect(String(validating: Array(folded.utf8), as: UTF8.self) != nil)
      }
      let unfolded = lines.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined()
      #expect(unfolded == line)
      #expect(
        lines.dropFirst().allSatisfy {
          $0.dropFirst().first.map { String($0).unicodeScalars.first?.properties.generalCategory != .nonspacingMark } ?? true
        })
    }
  }

  @Test func aCharacterLongerThanALineIsSplitBetweenItsScalars() {
    let family = String(repeating: "👩‍", count: 20) + "🍳"  // one grapheme, far over 75 octets
    let lines = ICalendarText.fold("X:" + family).components(separatedBy: "\r\n").dropLast()
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { $0.utf8.count <= 75 })
  }

  @Test func anAllDayEventCarriesItsSlotUIDSummaryAndDescription() {
    let text = MealCalendar.document([Self.dinner], stamp: Self.stamp)
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Forager//Meal plan//EN\r\n"))
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
    for line in [
      "UID:2024-12-13-dinner@meal-plan.forager", "DTSTAMP:20241213T000000Z", "DTSTART;VALUE=DATE:20241213",
      "DTEND;VALUE=DATE:20241214", "SUMMARY:Dinner: Egg Fried Rice",
      "DESCRIPTION:Egg Fried Rice\\nServings: 6\\nNotes: double the sauce\\; serve with chili\\, lime",
    ] {
      #expect(text.replacingOccurrences(of: "\r\n ", with: "").contains("\r\n" + line + "\r\n"), "\(line)")
    }
  }

  @Test func timedEventsStartAtTheMealTypesTime() {
    let breakfast = MealCalendar.Meal(date: CivilDate(year: 2024, month: 12, day: 31)!, mealType: .breakfast, recipes: ["Porridge"])
    let text = MealCalendar.document([Self.dinner, breakfast], stamp: Self.stamp, timing: .timed)
    #expect(text.contains("\r\nDTSTART:20241213T190000\r\nDURATION:PT60M\r\n"))
    #expect(text.contains("\r\nDTSTART:20241231T080000\r\nDURATION:PT30M\r\n"))
    #expect(!text.contains("VALUE=DATE"))
  }

  @Test func theLastDayOfAYearEndsOnTheNextYearsFirst() {
    let meal = MealCalendar.Meal(date: CivilDate(year: 2024, month: 12, day: 31)!, mealType: .lunch, recipes: [])
    let text = MealCalendar.document([meal], stamp: Self.stamp)
    #expect(text.contains("DTEND;VALUE=DATE:20250101\r\n"))
    #expect(text.contains("SUMMARY:Lunch\r\n"))
  }

  @Test func theSameSlotKeepsItsUIDWhateverItHolds() {
    var changed = Self.dinner
    changed.recipes = ["Shakshuka"]
    changed.notes = nil
    #expect(MealCalendar.uid(changed) == MealCalendar.uid(Self.dinner))
    var lunch = Self.dinner
    lunch.mealType = .lunch
    #expect(MealCalendar.uid(lunch) != MealCalendar.uid(Self.dinner))
  }

  @Test func eventsAreWrittenInDateAndMealOrder() {
    let lunch = MealCalendar.Meal(date: Self.dinner.date, mealType: .lunch, recipes: ["Soup"])
    let earlier = MealCalendar.Meal(date: CivilDate(year: 2024, month: 12, day: 1)!, mealType: .dinner, recipes: ["Stew"])
    let uids = MealCalendar.document([Self.dinner, lunch, earlier], stamp: Self.stamp).components(separatedBy: "\r\n")
      .filter { $0.hasPrefix("UID:") }
    #expect(
      uids == [
        "UID:2024-12-01-dinner@meal-plan.forager", "UID:2024-12-13-lunch@meal-plan.forager", "UID:2024-12-13-dinner@meal-plan.forager",
      ])
  }
}
