import Foundation
import Model
import Scripting
import TestSupport
import Testing

@testable import CommandLanguage

@Suite struct SessionCommandTests {
  @Test func helpListsEveryCommand() throws {
    let text = try Harness().text("help")
    for command in CommandRegistry<Session>.standard.commands {
      #expect(text.contains(command.name), "help should list \(command.name)")
    }
  }

  @Test func helpForACommandShowsUsageOptionsAndAnExample() throws {
    let text = try Harness().text("help recipe add")
    #expect(text.contains("usage: recipe add NAME"))
    #expect(text.contains("--anyway"))
    #expect(text.contains("examples:"))
    #expect(try Harness().text("meal plan --help").contains("usage: meal plan DATE MEAL RECIPE"))
    #expect(try Harness().text("help list").contains("list add-recipe"))
  }

  @Test func helpForAnUnknownCommandFails() throws {
    try Harness().expectFailure("help frobnicate", .failed, mentions: ["help: command: no command named 'frobnicate'"])
  }

  @Test func outputJSONSwitchesTheSessionMode() throws {
    let harness = try Harness()
    try harness.run("output json")
    #expect(harness.session.outputMode == .json)
    #expect(harness.interpreter.wantsJSON(try #require(harness.interpreter.parser.parse("counts").statements.first)))
  }

  @Test func countsCoverEveryKind() throws {
    let harness = try Harness()
    try harness.run("seed defaults")
    let rows = try harness.json("counts").rows("counts")
    #expect(rows.count == EntityKind.allCases.count)
    #expect(rows.first { $0.string("kind") == "category" }?.int("count") == 7)
  }

  @Test func duplicatesIsEmptyForACleanStore() throws {
    let harness = try Harness()
    try harness.run("seed sample")
    #expect(try harness.text("duplicates") == "no duplicates")
    #expect(try harness.text("duplicates recipe") == "no duplicates")
  }

  @Test func openSwitchesTheCurrentDeviceToAnotherStore() throws {
    let harness = try Harness()
    try harness.run("category add Produce")
    let file = try TemporaryDirectory.make().appendingPathComponent("open.sqlite")
    defer { try? FileManager.default.removeItem(at: file) }
    try harness.run("open \(file.path)")
    #expect(try harness.count(.category) == 0)
    try harness.run("category add Dairy\nopen --memory")
    #expect(try harness.count(.category) == 0)
    try harness.run("open \(Lexer.quote(file.path))")
    #expect(try harness.count(.category) == 1)
    try harness.expectFailure("open", .usage, mentions: ["open: path: missing; give PATH or --memory"])
    try harness.expectFailure("open x.sqlite --memory", .usage, mentions: ["not both"])
    try harness.expectFailure("open /dev/null/y.sqlite", .failed, mentions: ["open: store:"])
  }

  @Test func quitEndsTheRun() throws {
    let harness = try Harness()
    let results = try harness.interpreter.execute("category add A\nquit\ncategory add B")
    #expect(results.count == 2)
    #expect(try harness.count(.category) == 1)
  }
}

@Suite struct DeviceCommandTests {
  @Test func theDefaultDeviceExistsFromTheStart() throws {
    let harness = try Harness()
    let devices = try harness.json("device list").rows("devices")
    #expect(devices.map { $0.string("name") } == ["default"])
    #expect(devices.first?["current"] == .bool(true))
  }

  @Test func devicesHaveTheirOwnStores() throws {
    let harness = try Harness()
    try harness.run("category add Produce\ndevice add phone\ndevice use phone")
    #expect(harness.session.current.name == "phone")
    #expect(try harness.count(.category) == 0)
    try harness.run("category add Dairy\ncategory add Frozen\ndevice use DEFAULT")
    #expect(try harness.count(.category) == 1)
    let devices = try harness.json("device list").rows("devices")
    #expect(devices.map { $0.int("records") } == [1, 2])
  }

  @Test func deviceErrorsNameTheDevice() throws {
    let harness = try Harness()
    try harness.run("device add phone")
    try harness.expectFailure("device add Phone", .failed, mentions: ["device add: name: device 'phone' already exists"])
    try harness.expectFailure(
      "device use tablet", .failed, mentions: ["device use: name: no device named 'tablet' (devices: default, phone)"])
    try harness.expectFailure("device add tablet --memory --store x.sqlite", .usage, mentions: ["not both"])
  }

  @Test func aDeviceMayUseASQLiteFile() throws {
    let harness = try Harness()
    let file = try TemporaryDirectory.make().appendingPathComponent("device.sqlite")
    defer { try? FileManager.default.removeItem(at: file) }
    try harness.run("device add laptop --store \(Lexer.quote(file.path))")
    #expect(harness.session.device(named: "laptop")?.location.hasPrefix("sqlite:") == true)
    #expect(harness.session.cloud == nil)
  }
}

@Suite struct SeedCommandTests {
  @Test func seedingTwiceCreatesNothingTwice() throws {
    let harness = try Harness()
    #expect(try harness.text("seed defaults") == "seeded 7 categories (7 new)")
    #expect(try harness.text("seed defaults") == "seeded 7 categories (0 new)")
    try harness.run("seed sample")
    let before = try harness.counts()
    let json = try harness.json("seed sample")
    #expect(json["seeded"]?["recipe"]?.int("created") == 0)
    #expect(try harness.counts() == before)
    #expect(try harness.count(.recipe) == 8)
    #expect(try harness.count(.book) == 3)
  }

  @Test func seedingOnTwoDevicesCreatesTheSameRecords() throws {
    let harness = try Harness()
    try harness.run("seed sample\ndevice add phone\ndevice use phone\nseed sample")
    let phone = try harness.json("recipe show Egg Fried Rice")["recipe"]?.string("id")
    try harness.run("device use default")
    #expect(try harness.json("recipe show Egg Fried Rice")["recipe"]?.string("id") == phone)
  }
}
