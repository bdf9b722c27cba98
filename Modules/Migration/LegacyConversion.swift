public import Foundation
public import Model
import Normalization

/// The rules stage A uses to turn the earlier app's planned-meal instants into slots.
///
/// A version-1 planned meal has a `date` that is an instant (a point in time) and often
/// no meal type. Slots are civil: a meal is on 13 December on every device. So the
/// instant is read as a wall-clock time in one stated time zone — the zone of the device
/// that planned the meals, by default the zone of the device that runs the migration —
/// and its day becomes the civil date. A missing meal type is inferred from the hour:
///
/// | Wall-clock time | Meal type |
/// |---|---|
/// | exactly 00:00 | dinner (the earlier app stored date-only meals at midnight; dinner was its default) |
/// | 04:00–10:59 | breakfast |
/// | 11:00–15:59 | lunch |
/// | 16:00–21:59 | dinner |
/// | 22:00–03:59 | snack |
///
/// ```swift
/// let zone = TimeZone(identifier: "America/New_York")!
/// LegacyConversion.civilDate(of: instant, in: zone)       // 2025-01-06
/// LegacyConversion.inferredMealType(at: instant, in: zone) // .dinner
/// ```
public enum LegacyConversion {
  /// The civil date of `instant` on a wall clock in `zone`.
  public static func civilDate(of instant: Date, in zone: TimeZone) -> CivilDate? {
    let parts = calendar(zone).dateComponents([.year, .month, .day], from: instant)
    guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
    return CivilDate(year: year, month: month, day: day)
  }

  /// The meal type of a meal planned at `instant`, by the hour on a wall clock in `zone`
  /// (see the table above).
  public static func inferredMealType(at instant: Date, in zone: TimeZone) -> MealType {
    let parts = calendar(zone).dateComponents([.hour, .minute, .second], from: instant)
    return inferredMealType(hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
  }

  /// The meal type for a wall-clock time (see the table above).
  public static func inferredMealType(hour: Int, minute: Int, second: Int = 0) -> MealType {
    if hour == 0 && minute == 0 && second == 0 { return .dinner }
    switch hour {
    case 4..<11: return .breakfast
    case 11..<16: return .lunch
    case 16..<22: return .dinner
    default: return .snack
    }
  }

  /// A meal type as the earlier app wrote it ("Dinner", " lunch"), or nil when it is
  /// missing or not one of breakfast, lunch, dinner, snack.
  public static func mealType(_ text: String?) -> MealType? {
    guard let text else { return nil }
    return MealType(rawValue: Whitespace.trimmed(text).lowercased())
  }

  static func calendar(_ zone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
  }
}
