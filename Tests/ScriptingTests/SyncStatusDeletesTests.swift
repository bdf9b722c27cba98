import CommandLanguage
import Foundation
import Scripting
import Testing

/// `sync status` names the device that made the most deletes in the last day, from each
/// device's history: a hint for a device that deletes what it should not.
@Suite("Sync status: most deletes in the last day")
struct SyncStatusDeletesTests {
  @Test func statusNamesTheDeviceThatDeletedMost() throws {
    let harness = try Harness()
    try harness.run(
      """
      cloud open --memory
      device add phone
      device add laptop
      device use phone
      category add Produce
      category add Dairy
      category add Bakery
      category add Frozen
      sync all
      """)
    let quiet = try harness.json("sync status")
    #expect(quiet.rows("deletes").isEmpty, "no delete yet: \(quiet)")
    #expect(try !harness.text("sync status").contains("most deletes"))

    try harness.run(
      """
      device use laptop
      category delete Produce
      category delete Dairy
      category delete Bakery
      device use phone
      category delete Frozen
      sync all
      """)
    let status = try harness.json("sync status")
    let phone = status.rows("deletes").filter { $0["device"] == .string("phone") }
    #expect(phone.first?["deletedBy"] == .string("laptop") && phone.first?["deletes"] == .int(3), "\(status)")
    #expect(phone.dropFirst().first?["deletedBy"] == .string("phone") && phone.dropFirst().first?["deletes"] == .int(1))
    let text = try harness.text("sync status")
    #expect(text.contains("phone's history: most deletes in the last day by laptop (3 of 4; then phone 1)"), "\(text)")
    #expect(text.contains("laptop's history: most deletes in the last day by laptop (3 of 4; then phone 1)"), "\(text)")
  }
}
