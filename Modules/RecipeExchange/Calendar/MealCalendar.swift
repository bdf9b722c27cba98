public import Foundation
public import Model
import Normalization

/// The meal plan as an iCalendar file (RFC 5545) that calendar apps subscribe to or import.
///
/// A pure function of the meals and a time stamp: one VEVENT per planned slot, its UID
/// made from the slot's key (`2024-12-13-dinner@meal-plan.forager`), so importing a
/// later export again updates each meal's event instead of adding a second one. The
/// store has one kitchen and slot keys are the same on every device of it, so the UID
/// holds no kitchen id. Events are all-day by default; ``Timing/timed`` places them at
/// each meal type's ``defaultTimes`` as floating local times (a dinner at 19:00 is at
/// 19:00 wherever the calendar is, as a meal's civil date is the same date everywhere).
/// Lines end in CRLF and are folded at 75 octets; text is escaped.
///
/// ```swift
/// let text = MealCalendar.document([meal], stamp: now, timing: .allDay)
/// ```
public enum MealCalendar {
  /// One planned slot.
  public struct Meal: Sendable, Hashable {
    /// The meal's date.
    public var date: CivilDate
    /// The meal slot: breakfast, lunch, dinner or snack.
    public var mealType: MealType
    /// The recipes cooked in the slot (one, as Forager plans; none when it was deleted).
    public var recipes: [String]
    /// The servings planned, when given.
    public var servings: Double?
    /// Notes on the meal.
    public var notes: String?

    /// A planned slot with its recipes.
    public init(date: CivilDate, mealType: MealType, recipes: [String], servings: Double? = nil, notes: String? = nil) {
      self.date = date
      self.mealType = mealType
      self.recipes = recipes
      self.servings = servings
      self.notes = notes
    }
  }

  /// Whether events fill the whole day or start at a meal's time.
  public enum Timing: Sendable, Hashable {
    /// All-day events on the meal's date.
    case allDay
    /// Events at ``defaultTimes``.
    case timed
  }

  /// When each meal type's timed event starts (hour, minute) and how long it lasts, in minutes.
  public static let defaultTimes: [MealType: (hour: Int, minute: Int, minutes: Int)] = [
    .breakfast: (8, 0, 30), .lunch: (12, 30, 45), .snack: (16, 0, 30), .dinner: (19, 0, 60),
  ]

  /// The calendar's PRODID.
  public static let productID = "-//Forager//Meal plan//EN"

  /// The calendar's text.
  /// - Parameters:
  ///   - meals: the slots, written in date and meal order.
  ///   - stamp: DTSTAMP of every event (the export's time, from the session clock).
  ///   - timing: all-day events, or events at each meal's time.
  public static func document(_ meals: [Meal], stamp: Date, timing: Timing = .allDay) -> String {
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
      "X-WR-CALNAME:Meal plan",
    ]
    let ordered = meals.sorted { ($0.date, $0.mealType) < ($1.date, $1.mealType) }
    for meal in ordered { lines += event(meal, stamp: stamp, timing: timing) }
    lines.append("END:VCALENDAR")
    return lines.map(ICalendarText.fold).joined()
  }

  /// "2024-12-13-dinner@meal-plan.forager": the same slot always has the same UID.
  public static func uid(_ meal: Meal) -> String {
    "\(meal.date.description)-\(meal.mealType.rawValue)@meal-plan.forager"
  }

  /// "Dinner: Egg Fried Rice".
  public static func summary(_ meal: Meal) -> String {
    let type = meal.mealType.rawValue.prefix(1).uppercased() + meal.mealType.rawValue.dropFirst()
    return meal.recipes.isEmpty ? type : "\(type): \(meal.recipes.joined(separator: ", "))"
  }

  static func event(_ meal: Meal, stamp: Date, timing: Timing) -> [String] {
    var lines = ["BEGIN:VEVENT", "UID:\(uid(meal))", "DTSTAMP:\(utc(stamp))"]
    let day = compact(meal.date)
    switch timing {
    case .allDay:
      let next = CivilCalendar.adding(days: 1, to: (meal.date.year, meal.date.month, meal.date.day))
      lines += ["DTSTART;VALUE=DATE:\(day)", "DTEND;VALUE=DATE:\(compact(next))", "TRANSP:TRANSPARENT"]
    case .timed:
      let time = defaultTimes[meal.mealType] ?? (12, 0, 30)
      lines += ["DTSTART:\(day)T\(pad(time.hour))\(pad(time.minute))00", "DURATION:PT\(time.minutes)M"]
    }
    lines.append("SUMMARY:\(ICalendarText.escape(summary(meal)))")
    var description = meal.recipes
    if let servings = meal.servings { description.append("Servings: \(number(servings))") }
    if let notes = meal.notes, !notes.isEmpty { description.append("Notes: \(notes)") }
    if !description.isEmpty { lines.append("DESCRIPTION:\(ICalendarText.escape(description.joined(separator: "\n")))") }
    lines += ["CATEGORIES:\(meal.mealType.rawValue.uppercased())", "END:VEVENT"]
    return lines
  }

  /// "20241213T000000Z".
  static func utc(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let day = pad(parts.year ?? 1970, 4) + pad(parts.month ?? 1) + pad(parts.day ?? 1)
    return day + "T" + pad(parts.hour ?? 0) + pad(parts.minute ?? 0) + pad(parts.second ?? 0) + "Z"
  }

  static func compact(_ date: CivilDate) -> String { compact((date.year, date.month, date.day)) }

  static func compact(_ date: (year: Int, month: Int, day: Int)) -> String {
    pad(date.year, 4) + pad(date.month) + pad(date.day)
  }

  static func pad(_ value: Int, _ width: Int = 2) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// "6", "2.5".
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
