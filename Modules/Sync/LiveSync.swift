public import Foundation
import Synchronization

/// Keeps one device live: holds a channel to its cloud (``LiveCloud``) and decides when the
/// device syncs — when the log is announced past the device's cursor, a short debounce
/// after a local write, and on a poll timer. A dropped channel falls back to polling with
/// backoff and is opened again (Docs/SYNC.md, "Live").
///
/// The cursor decides, never the announcement: a sync pulls from the device's own place
/// in the log until a page is empty, so an announcement lost in a drop, heard twice or
/// heard late costs at most a poll's delay, never a batch. Syncs run only in
/// ``runDue()``, on the thread that owns the store (the REPL's, a script's); the channel's
/// thread only records what it heard and wakes that thread through ``wakeDescriptor``.
/// Every time comes from the injected clock, so tests drive it step by step.
///
/// ```swift
/// let live = LiveSync(engine: engine)
/// live.start()
/// while running {
///   live.wait(timeout: .seconds(1))
///   if let report = try live.runDue() { print(report) }
/// }
/// ```
public final class LiveSync: Sendable {
  /// The timings of a live device; every one is bounded by ``validated()``.
  public struct Options: Sendable, Hashable {
    /// How long after a local write the device pushes: writes within it go out together.
    public var debounce: Duration = .milliseconds(20)
    /// How often a live device syncs anyway (a safety net for an announcement a server
    /// could not send), and a cloud without a channel is polled.
    public var pollInterval: Duration = .seconds(30)
    /// The first wait before opening a dropped channel again; it doubles up to ``maxBackoff``.
    public var minBackoff: Duration = .milliseconds(250)
    /// The longest wait before opening a dropped channel again.
    public var maxBackoff: Duration = .seconds(30)

    /// The default options.
    public init() {}

    /// The options within their ranges: debounce 0–10 s, poll 0.05 s–1 h, backoff 0.01 s–1 h.
    public func validated() -> Options {
      var options = self
      options.debounce = min(max(debounce, .zero), .seconds(10))
      options.pollInterval = min(max(pollInterval, .milliseconds(50)), .seconds(3_600))
      options.minBackoff = min(max(minBackoff, .milliseconds(10)), .seconds(3_600))
      options.maxBackoff = min(max(maxBackoff, options.minBackoff), .seconds(3_600))
      return options
    }
  }

  /// Whether the device hears its cloud.
  public enum Mode: String, Sendable, Codable {
    /// A channel is open and heard.
    case live
    /// The channel dropped (or the cloud has none): polling, and opening it again.
    case polling
    /// ``stop()`` was called, or ``start()`` not yet.
    case off
  }

  /// What `sync status` shows of a live device.
  public struct Status: Sendable, Hashable {
    /// Whether the device is live on a channel, polling, or off.
    public var mode: Mode
    /// The newest end of the log the channel announced, and when.
    public var lastAnnouncement: Int64?
    /// When that announcement arrived.
    public var lastAnnouncementAt: Date?
    /// The newest end of the log heard by any means (announcement, hello, heartbeat).
    public var heardLatest: Int64
    /// Why the channel last ended, if it did.
    public var lastDrop: String?
    /// The last sync's failure, cleared by a sync that succeeds.
    public var lastError: String?
    /// Syncs run by this driver.
    public var syncs: Int
    /// When a dropped or refused channel is opened again (nil while one is open, or off).
    public var reopenAt: Date?
  }

  /// The engine that syncs when the cloud announces a change or the poll interval passes.
  public let engine: SyncEngine
  /// The intervals and backoff in force.
  public let options: Options
  private let now: @Sendable () -> Date
  private let wake = WakePipe()

  private struct State {
    var mode = Mode.off
    var channel: (any LiveChannel)?
    /// Bumped at each open, so signals of an older channel are ignored.
    var generation = 0
    var heard: Int64 = 0
    var lastAnnouncement: Int64?
    var lastAnnouncementAt: Date?
    var lastHeardAt: Date?
    var silenceLimit: Duration?
    var writeDue: Date?
    var pollDue: Date?
    var reopenDue: Date?
    var backoff: Duration
    var lastDrop: String?
    var lastError: String?
    var syncs = 0
  }

  private let state: Mutex<State>

  /// Keeps `engine`'s device live once ``start()`` is called.
  /// - Parameters:
  ///   - engine: the engine that syncs the device.
  ///   - options: timings (``Options``), brought within their ranges.
  ///   - now: the clock every timer reads (tests pass their own).
  public init(engine: SyncEngine, options: Options = Options(), now: @escaping @Sendable () -> Date = { Date() }) {
    self.engine = engine
    self.options = options.validated()
    self.now = now
    state = Mutex(State(backoff: self.options.minBackoff))
  }

  deinit { state.withLock { $0.channel }?.close() }

  /// A descriptor that becomes readable when ``runDue()`` may have work: poll it beside a
  /// terminal. ``runDue()`` empties it.
  public var wakeDescriptor: Int32 { wake.descriptor }

  /// Opens the channel (a cloud without one is polled) and syncs at the next ``runDue()``.
  public func start() {
    let at = now()
    state.withLock { state in
      guard state.mode == .off else { return }
      state.mode = .polling
      state.pollDue = at
      state.reopenDue = at
      state.backoff = options.minBackoff
    }
    wake.signal()
  }

  /// Closes the channel; the device syncs only when asked again.
  public func stop() {
    let channel = state.withLock { state -> (any LiveChannel)? in
      state.mode = .off
      state.generation += 1
      (state.writeDue, state.pollDue, state.reopenDue) = (nil, nil, nil)
      defer { state.channel = nil }
      return state.channel
    }
    channel?.close()
  }

  /// A local write happened: push it after the debounce (a burst of writes goes out once).
  public func noteLocalWrite() {
    let at = now()
    state.withLock { state in
      guard state.mode != .off, state.writeDue == nil else { return }
      state.writeDue = at.addingTimeInterval(Self.seconds(options.debounce))
    }
    wake.signal()
  }

  /// The current status, for `sync status`.
  public var status: Status {
    state.withLock { state in
      Status(
        mode: state.mode, lastAnnouncement: state.lastAnnouncement, lastAnnouncementAt: state.lastAnnouncementAt,
        heardLatest: state.heard, lastDrop: state.lastDrop, lastError: state.lastError, syncs: state.syncs,
        reopenAt: state.mode == .polling ? state.reopenDue : nil)
    }
  }

  /// How far the log is known to run past the device's cursor (0 when caught up).
  public func lag() throws -> Int64 { max(0, status.heardLatest - (try engine.cursor())) }

  /// When ``runDue()`` next has timed work (a debounce, a poll, a reopen), if any.
  public var nextDue: Date? {
    state.withLock { state in
      var due = [state.writeDue, state.pollDue, state.reopenDue].compactMap { $0 }
      if let heard = state.lastHeardAt, let limit = state.silenceLimit { due.append(heard.addingTimeInterval(Self.seconds(limit))) }
      return due.min()
    }
  }

  /// Blocks the calling thread until a signal arrives, timed work is due, or `timeout` passes.
  public func wait(timeout: Duration) {
    var limit = Self.seconds(timeout)
    if let due = nextDue { limit = min(limit, due.timeIntervalSince(now())) }
    guard limit > 0 else { return }
    wake.wait(milliseconds: Int32(min(limit * 1_000, Double(Int32.max)).rounded(.up)))
  }

  /// Does what is due, on the store's thread: opens a dropped channel again once its
  /// backoff passed, takes a silent channel for dropped, and syncs when the log was heard
  /// past the cursor, a debounced write or a poll is due.
  /// - Returns: the sync's report, or nil when no sync was due.
  /// - Throws: the sync's error (the device stays live and polls again after a backoff).
  @discardableResult
  public func runDue() throws -> SyncEngine.Report? {
    wake.drain()
    let at = now()
    reopenIfDue(at)
    dropIfSilent(at)
    let cursor = try engine.cursor()
    let due = state.withLock { state -> Bool in
      guard state.mode != .off else { return false }
      return state.heard > cursor || (state.writeDue.map { $0 <= at } ?? false) || (state.pollDue.map { $0 <= at } ?? false)
    }
    guard due else { return nil }
    state.withLock { $0.writeDue = nil }
    do {
      let report = try engine.sync()
      let after = now()
      state.withLock { state in
        state.syncs += 1
        state.lastError = nil
        let interval = state.mode == .live ? options.pollInterval : max(state.backoff, options.minBackoff)
        state.pollDue = after.addingTimeInterval(Self.seconds(state.mode == .live ? interval : min(interval, options.pollInterval)))
      }
      return report
    } catch {
      let after = now()
      state.withLock { state in
        state.syncs += 1
        state.lastError = String(describing: error)
        state.pollDue = after.addingTimeInterval(Self.seconds(state.backoff))
        state.backoff = min(state.backoff * 2, options.maxBackoff)
      }
      throw error
    }
  }

  // MARK: The channel

  private func reopenIfDue(_ at: Date) {
    let open = state.withLock { state -> Int? in
      guard state.mode == .polling, state.channel == nil, let due = state.reopenDue, due <= at else { return nil }
      state.reopenDue = nil
      state.generation += 1
      return state.generation
    }
    guard let generation = open else { return }
    guard let cloud = engine.cloud as? any LiveCloud else {
      // No channel: the poll timer alone keeps the device current.
      state.withLock { state in
        state.lastDrop = "\(engine.cloud.location) has no live channel; polling"
        state.pollDue = state.pollDue ?? at
      }
      return
    }
    let channel = cloud.openLiveChannel { [weak self] signal in self?.hear(signal, generation: generation) }
    let kept = state.withLock { state -> Bool in
      guard state.generation == generation, state.mode != .off, state.channel == nil else { return false }
      state.channel = channel
      return true
    }
    if !kept { channel.close() }
  }

  private func dropIfSilent(_ at: Date) {
    let channel = state.withLock { state -> (any LiveChannel)? in
      guard state.mode == .live, let heard = state.lastHeardAt, let limit = state.silenceLimit,
        at >= heard.addingTimeInterval(Self.seconds(limit))
      else { return nil }
      return state.channel
    }
    guard let channel else { return }
    hear(.ended("no event for over \(state.withLock { $0.silenceLimit }.map(Self.describe) ?? "?")"), generation: nil)
    channel.close()
  }

  /// A signal from the channel's thread: recorded, then the store's thread is woken.
  private func hear(_ signal: LiveSignal, generation: Int?) {
    let at = now()
    let changed = state.withLock { state -> Bool in
      if let generation, generation != state.generation { return false }
      guard state.mode != .off else { return false }
      switch signal {
      case .opened(let latest, let heartbeat):
        state.mode = .live
        state.backoff = options.minBackoff
        state.heard = max(state.heard, latest)
        state.lastHeardAt = at
        // A channel that says nothing for two and a half heartbeats is taken for dropped.
        state.silenceLimit = heartbeat.map { $0 * 5 / 2 }
        state.pollDue = at.addingTimeInterval(Self.seconds(options.pollInterval))
      case .announced(let latest):
        state.heard = max(state.heard, latest)
        state.lastAnnouncement = max(state.lastAnnouncement ?? 0, latest)
        state.lastAnnouncementAt = at
        state.lastHeardAt = at
      case .heartbeat(let latest):
        state.heard = max(state.heard, latest)
        state.lastHeardAt = at
      case .ended(let reason):
        let wait = state.backoff
        Self.drop(&state, reason: reason, reopenAfter: wait, at: at, options: options)
      case .refused(let reason, let retryAfter):
        // Polling goes on at the backoff; only the channel waits for the cloud's time.
        let wait = max(state.backoff, min(retryAfter, .seconds(3_600)))
        Self.drop(&state, reason: reason, reopenAfter: wait, at: at, options: options)
      }
      return true
    }
    if changed { wake.signal() }
  }

  /// The channel ended: poll after the backoff, open another after `reopenAfter`.
  private static func drop(_ state: inout State, reason: String, reopenAfter: Duration, at: Date, options: Options) {
    state.mode = .polling
    state.generation += 1
    state.channel = nil
    state.lastDrop = reason
    state.lastHeardAt = nil
    state.reopenDue = at.addingTimeInterval(seconds(reopenAfter))
    state.pollDue = min(state.pollDue ?? .distantFuture, at.addingTimeInterval(seconds(state.backoff)))
    state.backoff = min(state.backoff * 2, options.maxBackoff)
  }

  static func seconds(_ duration: Duration) -> TimeInterval {
    let parts = duration.components
    return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
  }

  static func describe(_ duration: Duration) -> String {
    String(format: "%.1f s", seconds(duration))
  }
}
