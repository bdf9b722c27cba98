import Foundation
import Testing

@testable import RecipeExchange

/// Each rule of the repair pass, on the text alone: what it writes and that the strict
/// parser then reads it.
@Suite struct JSONRepairTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let input: String
    let output: String
    let repairs: [JSONRepair.Repair]
    var testDescription: String { input.debugDescription }
  }

  @Test(arguments: [
    Case(input: "{\"a\": \"x\ty\nz\r\u{01}\"}", output: #"{"a": "x\ty\nz\r\u0001"}"#, repairs: [.controlCharacter]),
    Case(input: #"{"a": "it\'s \_ \x41 \u12"}"#, output: #"{"a": "it's _ x41 u12"}"#, repairs: [.invalidEscape]),
    Case(input: #"{"a": "\u00e9 \/ \\ \" \n\t"}"#, output: #"{"a": "\u00e9 \/ \\ \" \n\t"}"#, repairs: []),
    Case(input: "\u{FEFF}// made by hand\n{\"a\": 1 /* one */}", output: "  \n{\"a\": 1  }", repairs: [.comment]),
    Case(input: "<!-- schema -->{\"a\": \"<!-- kept -->\"}-->", output: " {\"a\": \"<!-- kept -->\"} ", repairs: [.comment]),
    Case(input: #"{"a": [1, 2,], "b": 3, /* c */ }"#, output: #"{"a": [1, 2], "b": 3   }"#, repairs: [.comment, .trailingComma]),
    Case(input: #"{"a": ",]"};"#, output: #"{"a": ",]"}"#, repairs: [.strayPunctuation]),
    Case(input: "{\u{0B}\"a\":\u{A0}1}", output: #"{ "a": 1}"#, repairs: [.spaceBetweenTokens]),
    Case(input: "{&quot;a&quot;: &#34;b &amp;amp; c&#x22;}", output: #"{"a": "b &amp; c"}"#, repairs: [.htmlEntities]),
  ])
  func eachFormIsRewrittenAsStrictJSON(_ example: Case) throws {
    let result = JSONRepair.repair(example.input)
    #expect(String(decoding: result.bytes, as: UTF8.self) == example.output)
    #expect(result.repairs == example.repairs)
    _ = try JSONSerialization.jsonObject(with: Data(result.bytes))
  }

  @Test func textWithQuotesIsNotTakenForEntityEncoded() {
    #expect(JSONRepair.isEntityEncoded(#"{&quot;a&quot;: 1}"#))
    #expect(!JSONRepair.isEntityEncoded(#"{"a": "say &quot;hi&quot;"}"#))
    #expect(!JSONRepair.isEntityEncoded(#"{}"#))
  }

  @Test func anUnclosedStringOrCommentRunsToTheEndAndStaysBroken() {
    for text in [#"{"a": "open"#, "{\"a\": 1 /* open"] {
      let result = JSONRepair.repair(text)
      #expect(throws: (any Error).self, "\(text)") { try JSONSerialization.jsonObject(with: Data(result.bytes)) }
    }
  }
}
