public import CommandLanguage
public import Foundation
public import Model
public import Persistence
import PersistenceMemory
import PersistenceSQLite
public import Repositories
public import Sync

/// Everything a run of the command language works on: named devices (each its own store
/// and ``Library``), the current device, one cloud slot, and the output mode.
///
/// The first device, ``defaultDeviceName``, exists from the start.
///
/// ```swift
/// let session = try Session(location: "memory")
/// try session.addDevice("phone", location: "memory")
/// try session.useDevice("phone")
/// ```
public final class Session {
  /// How results are printed unless a command says `--json`.
  public enum OutputMode: String, Sendable {
    case table, json
  }

  public static let defaultDeviceName = "default"

  /// The backends stores are opened with.
  /// One monotonic clock for every store of the process: of two writes on different
  /// devices, the later is always dated (and so stamped) later.
  public static let factory = StoreFactory(backends: [SQLiteBackend(), MemoryBackend()], clock: MonotonicClock().now)

  public let factory: StoreFactory
  /// The commands this session understands.
  public let registry: CommandLanguage.CommandRegistry<Session>
  /// The clock every library uses; tests pass a fixed one.
  public let now: @Sendable () -> Date
  public private(set) var devices: [Device]
  public private(set) var current: Device
  /// The cloud the devices sync through (`cloud open PATH` or `--memory`).
  public var cloud: (any CloudStore)?
  /// The sync server the devices sync through (`cloud open URL`), in place of ``cloud``:
  /// its address, and each device's connection, made with that device's own token.
  var server: (url: String, clouds: [String: any CloudStore])?
  /// Sync state of the session's devices: which are offline, and each one's monitor.
  var sync = SessionSync()
  /// The live devices (`sync live on`), each with its channel to the cloud.
  var live = SessionLive()
  /// The clock live sync's timers read (debounce, polls, backoff) and `sync wait`'s
  /// deadline; tests move their own by hand.
  public var liveClock: @Sendable () -> Date = { Date() }
  /// The timings of live devices started from now on.
  public var liveOptions = LiveSync.Options()
  public var outputMode: OutputMode = .table
  /// Told how far a command that reads many files has got (done, total, the file being
  /// read; done == total at the end). Front ends set it only on a terminal, so scripts'
  /// output and tests never see progress.
  public var fileProgress: ((Int, Int, String) -> Void)?
  /// The system `list show` shows amounts in (`settings units`); nil keeps each line in
  /// the system its amounts were written in. Held by the session, not synced.
  public var units: UnitPreference?
  /// The REPL sets it: a command that writes several records on the user's behalf
  /// (`recipe cooked --use-pantry`) then shows what it would write, and writes only when
  /// run again with `--yes`. Scripts write at once.
  public var showsWritesFirst = false
  /// Whether each command's changes are kept for `undo` (the REPL keeps them; a script's
  /// commands are not kept, so a long import holds no copy of what it wrote).
  public var keepsUndo = false
  /// The commands of this session that changed records, oldest first, for `undo`.
  var undoable: [UndoStep] = []
  /// Where a batch script writes the undo of what it changed (`forager-batch --undo-file`):
  /// set, every command's changes are kept (none dropped after the 100 `undo` reaches) and the file is
  /// rewritten after each command that changed records.
  public var undoFile: UndoFile?
  /// Where a command that runs until stopped (`watch list`) shows each result as it
  /// comes; the REPL engine and the script runner set it around each command, rendered
  /// as that command's output. Nil: the command returns its results together at the end.
  public var showUpdate: ((CommandResult) -> Void)?
  /// The REPL sets it: whether Ctrl-C was pressed since the last call, which ends a
  /// `watch`. Nil (scripts): nothing interrupts, and a watch ends by its own bound.
  public var interruptRequested: (() -> Bool)?
  /// Called after a store is opened inside an atomic run, so the run can join it.
  var storeOpened: ((Device) throws -> Void)?

  /// Closes every device's store and the cloud, so file stores leave no write-ahead log
  /// behind; returns what could not be closed, for a warning. The session is not used
  /// afterwards.
  public func close() -> [String] {
    stopAllLive()
    var problems: [String] = []
    var closed = Set<ObjectIdentifier>()
    for device in devices where closed.insert(ObjectIdentifier(device.store)).inserted {
      do { try device.store.close() } catch { problems.append("\(device.store.location): \(error)") }
    }
    for cloud in [cloud].compactMap({ $0 }) + (server?.clouds.values.map { $0 } ?? []) {
      do { try cloud.close() } catch { problems.append("\(cloud.location): \(error)") }
    }
    return problems
  }

  /// Opens the default device's store at `location` ("memory", "sqlite:PATH" or a path).
  /// - Throws: ``ScriptError`` when the store cannot be opened.
  public init(
    location: String, factory: StoreFactory = Session.factory, registry: CommandLanguage.CommandRegistry<Session> = .standard,
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws(ScriptError) {
    self.factory = factory
    self.registry = registry
    self.now = now
    let store = try Self.open(location, factory: factory, command: nil)
    let device = Device(name: Self.defaultDeviceName, location: store.location, store: store, now: now)
    devices = [device]
    current = device
  }

  /// The cloud `device` syncs through: its connection to the server when the session uses
  /// one (nil until the device has a token), else the session's cloud.
  public func cloud(for device: Device) -> (any CloudStore)? {
    guard let server else { return cloud }
    return server.clouds[device.name]
  }

  /// The current device's library.
  public var library: Library { current.library }

  /// The location for a `--store PATH` value: the path as a SQLite file, unless it
  /// already names a backend ("memory", "sqlite:…").
  public static func location(forStorePath path: String) -> String {
    if path == "memory" || path.hasPrefix("sqlite:") || path.hasPrefix("memory:") { return path }
    return "sqlite:" + path
  }

  static func open(_ location: String, factory: StoreFactory, command: String?) throws(ScriptError) -> any Store {
    do {
      return try factory.open(location)
    } catch {
      throw ScriptError(.failed, command: command, argument: "store", reason: String(describing: error))
    }
  }

  /// The device named `name` (any case), or nil.
  public func device(named name: String) -> Device? {
    devices.first { $0.name.lowercased() == name.lowercased() }
  }

  /// Adds a device with its own store.
  /// - Throws: ``ScriptError`` for a taken or empty name, or a store that cannot open.
  @discardableResult
  public func addDevice(_ name: String, location: String, command: String = "device add") throws(ScriptError) -> Device {
    let cleaned = name.trimmingCharacters(in: .whitespaces)
    guard !cleaned.isEmpty else { throw ScriptError(.failed, command: command, argument: "name", reason: "a device name cannot be empty") }
    if let existing = device(named: cleaned) {
      throw ScriptError(.failed, command: command, argument: "name", reason: "device '\(existing.name)' already exists")
    }
    let store = try Self.open(location, factory: factory, command: command)
    let device = Device(name: cleaned, location: store.location, store: store, now: now)
    devices.append(device)
    do {
      try storeOpened?(device)
    } catch {
      throw ScriptError(.failed, command: command, reason: String(describing: error))
    }
    return device
  }

  /// Makes `name` the current device.
  public func useDevice(_ name: String, command: String = "device use") throws(ScriptError) {
    guard let device = device(named: name) else {
      let known = devices.map(\.name).joined(separator: ", ")
      throw ScriptError(.failed, command: command, argument: "name", reason: "no device named '\(name)' (devices: \(known))")
    }
    current = device
  }

  /// Points the current device at another store.
  public func reopenCurrent(location: String, command: String = "open") throws(ScriptError) {
    let store = try Self.open(location, factory: factory, command: command)
    current.replaceStore(location: store.location, store: store, now: now)
    do {
      try storeOpened?(current)
    } catch {
      throw ScriptError(.failed, command: command, reason: String(describing: error))
    }
  }
}
