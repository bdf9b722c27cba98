import BenchBaselines
import FaultProxySupport
import Foundation
import ServerTestSupport

/// Live sync end to end (Docs/PERFORMANCE.md, `live`): how soon a change on one device shows
/// on another's table through real server processes on loopback, with a household's worth
/// of devices subscribed in every household; what idle subscriptions cost a server; and the
/// same propagation through a fault proxy that delays and cuts connections.
enum LiveScenario {
  static let scenario = Scenario(
    id: "live", title: "live sync: a change on one device shown on another's table",
    target: "p50 < 50 ms, p99 < 250 ms, also across two server instances; saturated pushes with subscribers ≥ 90 % of without",
    parameters: [
      "live.devices", "live.households", "live.changes", "live.faulty.changes", "live.idle", "live.seconds", "live.delay.ms",
      "live.cut.percent", "live.phases",
    ]
  ) { context in
    if let skipped = ScenarioResult.skippedWithoutPostgres(context) { return skipped }
    return try run(context)
  }

  /// The devices of a household whose idle subscriptions the cost phase holds.
  static let devicesPerHousehold = 4

  static func run(_ context: Context) throws -> ScenarioResult {
    let households = max(1, context.sizes["live.households"]), devices = max(2, context.sizes["live.devices"])
    let changes = max(1, context.sizes["live.changes"]), faultyChanges = max(1, context.sizes["live.faulty.changes"])
    let idle = max(1, context.sizes["live.idle"]), seconds = Double(max(1, context.sizes["live.seconds"]))
    // `--size` holds these within `Sizes.ranges`.
    let delay = context.sizes["live.delay.ms"], cutPercent = context.sizes["live.cut.percent"], phases = context.sizes["live.phases"]
    // Households of four devices, as families are: the idle subscribers are four in each of
    // `idle / 4` households, the first `households` of them the load's.
    let idleHouseholds = max(households, idle / Self.devicesPerHousehold)
    // The propagation's devices are in `households` households of their own after the
    // load's, whose logs the cost phases grew by thousands of batches: a device that
    // joins one pulls its log first, and through the fault proxy that took past a minute.
    let propagationHouseholds = households..<(2 * households)
    let bed = try LiveBed(
      context, serverCount: 2, households: max(idleHouseholds, propagationHouseholds.upperBound), connections: idle + 2 * devices + 16)
    defer { bed.stop() }
    let (first, second) = (bed.servers[0], bed.servers[1])
    var figures: [String: Double] = [:]

    // What subscriptions cost: saturated pushes with none; the server quiet with none and
    // with `idle` subscriptions open; then pushes with them and without them in turn,
    // `phases` phases with between `phases + 1` without, so what drifts from phase to phase
    // (the log grows by thousands of batches a phase; PostgreSQL checkpoints and vacuums
    // when it will) weighs the same on both sides, and no single phase decides. The subscribers are
    // plain sockets read in rounds (IdleSubscribers): the server's cost of them, not the
    // bench's of simulating them on the same cores.
    let load = try LiveCost.loadDevices(bed, count: devices, households: households, changes: 20)
    let idleTokens = try bed.tokens(households: (0..<idle).map { $0 % idleHouseholds }, prefix: "idle")
    var pushesWithout = [try LiveCost.saturatedPushes(bed, load, base: first.base, seconds: seconds)]
    // A smoke run's quiet windows are a quarter second: its figures mean nothing.
    let quiet = context.smoke ? 0.25 : seconds
    let none = LiveCost.quiet(first.pid, seconds: quiet)
    var idleSubscribers = try IdleSubscribers(port: first.port, tokens: idleTokens)
    let subscribed = LiveCost.quiet(first.pid, seconds: quiet)
    var pushesWith: [Double] = [], closedByServer = 0, eventBytes = 0
    for round in 0..<phases {
      if round > 0 { idleSubscribers = try IdleSubscribers(port: first.port, tokens: idleTokens) }
      pushesWith.append(try LiveCost.saturatedPushes(bed, load, base: first.base, seconds: seconds))
      idleSubscribers.cancel()
      closedByServer += idleSubscribers.closedByServer
      eventBytes += idleSubscribers.bytes
      pushesWithout.append(try LiveCost.saturatedPushes(bed, load, base: first.base, seconds: seconds))
    }
    let reference = pushesWithout.reduce(0, +) / Double(pushesWithout.count)
    let withSubscribers = pushesWith.reduce(0, +) / Double(pushesWith.count)
    // The same number crowded into the load's households (forty a household): every push
    // is announced forty times. A stress figure, not the target's.
    let crowdedTokens = try bed.tokens(households: (0..<idle).map { $0 % households }, prefix: "crowded")
    let crowdedSubscribers = try IdleSubscribers(port: first.port, tokens: crowdedTokens)
    let pushesCrowded = try LiveCost.saturatedPushes(bed, load, base: first.base, seconds: seconds)
    crowdedSubscribers.cancel()
    let crowd = idle / households, spread = idle / idleHouseholds
    for (index, rate) in pushesWithout.enumerated() { figures["no subscriber, phase \(2 * index + 1): saturated pushes/s"] = rate }
    for (index, rate) in pushesWith.enumerated() {
      figures["\(idle) subscribers, \(spread) a household, phase \(2 * index + 2): saturated pushes/s"] = rate
    }
    figures["saturated pushes with subscribers, of without %"] = 100 * withSubscribers / reference
    figures["\(idle) subscribers crowded, \(crowd) a household: saturated pushes/s"] = pushesCrowded
    figures["saturated pushes with \(crowd) subscribers a household, of the phase before %"] =
      100 * pushesCrowded / (pushesWithout.last ?? reference)
    figures["subscriptions the server closed count"] = Double(closedByServer + crowdedSubscribers.closedByServer)
    figures["idle subscribers: events read MiB"] = Double(eventBytes) / 1_048_576
    figures["\(crowd) a household: events read MiB"] = Double(crowdedSubscribers.bytes) / 1_048_576
    figures["no subscriber: server MiB"] = none.residentMiB
    figures["\(idle) idle subscribers: server MiB"] = subscribed.residentMiB
    figures["server memory per idle subscriber KB"] = (subscribed.residentMiB - none.residentMiB) * 1_048.576 / Double(idle)
    figures["no subscriber: server CPU, quiet %"] = 100 * none.cpuPerSecond
    figures["server CPU per 1000 idle subscribers, quiet %"] =
      100 * (subscribed.cpuPerSecond - none.cpuPerSecond) * 1_000 / Double(idle)

    // Propagation, with `devices` devices subscribed: A and B, and the rest spread over
    // the propagation's households, pulling when their household's log grows. Each run's
    // A and B are of a household of their own among the last three, so a new B does not
    // first pull the changes of the run before (they are timed from caught up, but
    // pulling thousands of batches through the fault proxy is a test of its own).
    let others = (2..<devices).map { propagationHouseholds.lowerBound + $0 % households }
    let otherTokens = try bed.tokens(households: others, prefix: "subscriber")
    let failedPulls = Counter()
    let subscribers = try LiveListener.start(
      bed.http, bases: [first.base, second.base], tokens: otherTokens, pull: true, failedPulls: failedPulls)
    defer { subscribers.cancel() }
    func pair(_ label: String, _ run: Int) throws -> [String] {
      let household = max(propagationHouseholds.lowerBound, propagationHouseholds.upperBound - 1 - run)
      return try bed.tokens(households: [household, household], prefix: label)
    }
    let sameTokens = try pair("same", 0), crossTokens = try pair("cross", 1), faultyTokens = try pair("faulty", 2)
    let same = try LivePropagation.measure(
      context, label: "same", a: (first.base, sameTokens[0]), b: (first.base, sameTokens[1]), changes: changes)
    let cross = try LivePropagation.measure(
      context, label: "cross", a: (first.base, crossTokens[0]), b: (second.base, crossTokens[1]), changes: changes)
    // B behind the fault proxy: every chunk delayed, a share of connections cut mid-response.
    let proxy = try FaultProxy(
      targetPort: first.port, faults: FaultProxy.Faults(delay: .milliseconds(delay), cutShare: Double(cutPercent) / 100, seed: 35))
    defer { proxy.stop() }
    let faulty = try LivePropagation.measure(
      context, label: "faulty", a: (first.base, faultyTokens[0]), b: ("http://127.0.0.1:\(proxy.port)", faultyTokens[1]),
      changes: faultyChanges)

    var tooFew: [String] = []
    for (name, outcome) in [("one server", same), ("two servers", cross), ("bad network", faulty)] {
      let stats = Stats(outcome.latencies)
      figures["\(name): propagation p50"] = stats.median
      if let p99 = stats.p99 { figures["\(name): propagation p99"] = p99 } else { tooFew.append(name) }
    }
    figures["bad network: connections cut mid-response count"] = Double(proxy.counts.cut)
    figures["bad network: connections count"] = Double(proxy.counts.accepted)
    figures["bad network: failed syncs retried count"] = Double(faulty.failedSyncs)
    // Without faults nothing may fail: a failed sync or pull is quick and would flatter the
    // figures it is counted in.
    let unexpected = same.failedSyncs + cross.failedSyncs + failedPulls.value
    if unexpected > 0 {
      throw BenchError(
        "\(same.failedSyncs + cross.failedSyncs) sync(s) of the timed devices and \(failedPulls.value) subscriber pull(s) failed "
          + "with no fault injected")
    }

    var result = ScenarioResult(context)
    result.forager = Stats(same.latencies)
    result.figures = figures
    let (sameStats, crossStats) = (Stats(same.latencies), Stats(cross.latencies))
    if let sameP99 = sameStats.p99, let crossP99 = crossStats.p99 {
      let met =
        sameStats.median < 0.05 && crossStats.median < 0.05 && sameP99 < 0.25 && crossP99 < 0.25 && withSubscribers >= 0.9 * reference
      result.judge(met)
    } else {
      result.verdict = "too few samples"
    }
    result.note =
      "propagation from A's commit to B's row (one server; A and B on two; B behind a proxy adding \(delay) ms a chunk and "
      + "cutting its connection in the middle of \(cutPercent) % of the server's chunks — A and B converged), \(devices) devices live in \(households) households; "
      + "cost on one server: \(idle) idle subscriptions (plain sockets read in 10 ms rounds, \(spread) a household in \(idleHouseholds) households) "
      + "against none, quiet \(Int(seconds)) s each, and saturated pushes (\(devices) load devices in the first \(households) households, \(Int(seconds)) s) "
      + "with them \(phases == 1 ? "once" : "\(phases) times"), between \(phases + 1) without (the target compares the means), then with \(idle) crowded into the load's households"
      + (tooFew.isEmpty ? "" : "; p99 n/a (<\(Stats.samplesForP99) samples): \(tooFew.joined(separator: ", "))")
      + "; \(context.postgresNote)"
    return result
  }
}
