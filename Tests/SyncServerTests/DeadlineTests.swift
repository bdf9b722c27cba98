import SyncServer
import Testing

/// Every storage call and request body of the server runs under `withDeadline`: it gives
/// the work's answer, or nil once the limit passes, and its timer ends with the work.
@Suite(.timeLimit(.minutes(5)))
struct DeadlineTests {
  @Test func workThatFinishesGivesItsAnswerAndDoesNotWaitForTheTimer() async throws {
    // The timer is ten minutes away: were it not ended with the work, the group would
    // wait for it and the suite's time limit would fail the test.
    for value in 0..<1_000 {
      #expect(try await withDeadline(.seconds(600)) { value } == value)
    }
  }

  @Test func workPastTheLimitIsCancelledAndGivesNil() async throws {
    let answer: Int? = try await withDeadline(.milliseconds(20)) {
      try await Task.sleep(for: .seconds(600))
      return 1
    }
    #expect(answer == nil)
  }

  @Test func aFailureOfTheWorkIsThrown() async {
    struct Refused: Error {}
    await #expect(throws: Refused.self) { try await withDeadline(.seconds(600)) { () throws -> Int in throw Refused() } }
  }

  @Test func aCancelledCallerEndsAtOnce() async {
    let call = Task { try await withDeadline(.seconds(600)) { try await Task.sleep(for: .seconds(600)) } }
    call.cancel()
    let outcome = await call.result
    #expect((try? outcome.get()) == nil)
  }
}
