import ArgumentParser
import Foundation
import SyncServer

/// One numeric option of `serve`: its name, the values it takes, its default, what it sets
/// in the `ServerConfiguration`, and its one line of help. `serve`'s help, its validation,
/// the copy into the configuration and Docs/SERVER.md's table of `serve`'s options are all
/// made from ``all`` (`ServeLimitsTests` fails when the doc differs).
struct ServeLimit: Sendable {
  /// What a value counts; the help and the doc write ranges and defaults in it.
  enum Unit: Sendable {
    case bytes, seconds, milliseconds, requestsPerSecond, requests, count, days
  }

  /// Where the option's value goes.
  enum Setting: Sendable {
    case int(WritableKeyPath<ServerConfiguration, Int> & Sendable)
    case optionalInt(WritableKeyPath<ServerConfiguration, Int?> & Sendable)
    case int64(WritableKeyPath<ServerConfiguration, Int64> & Sendable)
    case seconds(WritableKeyPath<ServerConfiguration, Duration> & Sendable)
    case milliseconds(WritableKeyPath<ServerConfiguration, Duration> & Sendable)
    case timeInterval(WritableKeyPath<ServerConfiguration, TimeInterval> & Sendable)
    /// Days, kept in the configuration as seconds.
    case days(WritableKeyPath<ServerConfiguration, TimeInterval> & Sendable)
    /// Read by `serve` itself, not the service (the port, the start-up wait).
    case serve
  }

  /// The value an option takes when it is not given.
  enum Default: Sendable {
    /// The value a default `ServerConfiguration` holds.
    case configuration
    /// A value of `serve`'s own.
    case value(Int)
    /// A value that depends on the machine or the other options, described in words; nil:
    /// the setting is left off.
    case derived(String, @Sendable (Serve) -> Int?)
  }

  /// The option's long name, without the dashes.
  let name: String
  /// The parsed option: nil when it was not given.
  let option: KeyPath<Serve, Int?> & Sendable
  let setting: Setting
  let range: ClosedRange<Int>
  let unit: Unit
  let `default`: Default
  /// What the option limits, in one sentence.
  let summary: String
  /// What a value at the edge of the range means, or a bound that depends on another option.
  var rangeNote: String? = nil
  /// More help, shown below the option's line.
  var discussion: String? = nil

  /// `--name`.
  var flag: String { "--\(name)" }

  /// The option's help: the summary, its range and its default.
  var help: ArgumentHelp {
    ArgumentHelp("\(summary.dropLast()) (\(rangeText); default: \(defaultText)).", discussion: discussion ?? "")
  }

  /// The range as the help and the doc write it, e.g. `1024–67108864 bytes, i.e. 1 KiB to 64 MiB`.
  var rangeText: String {
    var text = "\(range.lowerBound)–\(range.upperBound)"
    switch unit {
    case .bytes:
      text += " bytes, i.e. \(Self.bytes(range.lowerBound)) to \(Self.bytes(range.upperBound))"
    case .seconds: text += " s"
    case .milliseconds: text += " ms"
    case .requestsPerSecond: text += " requests/s"
    case .requests: text += " requests"
    case .days: text += " days"
    case .count: break
    }
    return rangeNote.map { "\(text); \($0)" } ?? text
  }

  /// The default as the help and the doc write it, e.g. `4 MiB`.
  var defaultText: String {
    switch `default` {
    case .configuration: written(Self.read(setting, from: ServerConfiguration()) ?? 0)
    case .value(let value): written(value)
    case .derived(let words, _): words
    }
  }

  /// The value `serve` runs with: the option's, or its default.
  func value(in serve: Serve) -> Int? {
    if let given = serve[keyPath: option] { return given }
    switch `default` {
    case .configuration: return Self.read(setting, from: ServerConfiguration())
    case .value(let value): return value
    case .derived(_, let compute): return compute(serve)
    }
  }

  /// Refuses a given value outside ``range``, naming the option, its range and the value.
  func validate(_ serve: Serve) throws {
    guard let value = serve[keyPath: option] else { return }
    try check(value, in: range, option: flag)
  }

  /// Sets the configuration's value from `serve`'s.
  func apply(_ serve: Serve, to configuration: inout ServerConfiguration) {
    let value = self.value(in: serve)
    switch setting {
    case .int(let path): if let value { configuration[keyPath: path] = value }
    case .optionalInt(let path): configuration[keyPath: path] = value
    case .int64(let path): if let value { configuration[keyPath: path] = Int64(value) }
    case .seconds(let path): if let value { configuration[keyPath: path] = .seconds(value) }
    case .milliseconds(let path): if let value { configuration[keyPath: path] = .milliseconds(value) }
    case .timeInterval(let path): if let value { configuration[keyPath: path] = TimeInterval(value) }
    case .days(let path): if let value { configuration[keyPath: path] = TimeInterval(value) * 86_400 }
    case .serve: break
    }
  }

  /// A value written in the option's unit.
  func written(_ value: Int) -> String {
    switch unit {
    case .bytes: Self.bytes(value)
    case .seconds: "\(value) s"
    case .milliseconds: "\(value) ms"
    case .days: "\(value) days"
    case .requestsPerSecond, .requests, .count: "\(value)"
    }
  }

  static func read(_ setting: Setting, from configuration: ServerConfiguration) -> Int? {
    switch setting {
    case .int(let path): configuration[keyPath: path]
    case .optionalInt(let path): configuration[keyPath: path]
    case .int64(let path): Int(configuration[keyPath: path])
    case .seconds(let path): Int(configuration[keyPath: path].components.seconds)
    case .milliseconds(let path): Int(configuration[keyPath: path] / .milliseconds(1))
    case .timeInterval(let path): Int(configuration[keyPath: path])
    case .days(let path): Int(configuration[keyPath: path] / 86_400)
    case .serve: nil
    }
  }

  /// A byte count in the largest binary unit that divides it: `64 MiB`, `1024 bytes` stays
  /// `1 KiB`, `1 byte`.
  static func bytes(_ count: Int) -> String {
    let units = ["TiB", "GiB", "MiB", "KiB"]
    for (index, unit) in units.enumerated() {
      let size = 1 << (10 * (units.count - index))
      if count >= size, count % size == 0 { return "\(count / size) \(unit)" }
    }
    return count == 1 ? "1 byte" : "\(count) bytes"
  }
}
