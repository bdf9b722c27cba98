import Foundation
import FuzzSupport

#if FUZZING
  /// The harness inputs run against: one device that keeps what earlier inputs left, made
  /// anew every 500 inputs so that its log (which holds every input) stays small.
  nonisolated(unsafe) private var harness: BatchFuzzHarness?
  nonisolated(unsafe) private var fed = 0

  /// libFuzzer's entry point (`Scripts/fuzz.sh` builds this with `-sanitize=fuzzer`): the
  /// bytes are the next batch of the device's log. A sync that throws is a finding too: it
  /// would fail again at every retry.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
      if harness == nil || fed % 500 == 0 { harness = try BatchFuzzHarness() }
      fed += 1
      try harness?.feed(data.map { Data(bytes: $0, count: size) } ?? Data())
    } catch {
      fatalError("sync threw on a fuzzed batch: \(error)")
    }
    return 0
  }

  /// libFuzzer's own mutation of a buffer in place; returns the new size.
  @_silgen_name("LLVMFuzzerMutate")
  func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int

  /// libFuzzer's custom mutator: half the time one of the structured mutations of
  /// `BatchMutator` (a far or bottom stamp, a shared-paragraph flood, merge edges, a value
  /// of the wrong type…) on an input that decodes as a batch, so the inputs coverage keeps
  /// reach the pull's checks and the join; otherwise, or when the result would not fit,
  /// libFuzzer's own byte mutations.
  @_cdecl("LLVMFuzzerCustomMutator")
  public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data, seed % 2 == 0 else { return libFuzzerMutate(data, size, maxSize) }
    var mutator = BatchMutator(seed: UInt64(seed), seeds: [])
    guard let mutated = mutator.structuredMutation(of: Data(bytes: data, count: size)), mutated.count <= maxSize else {
      return libFuzzerMutate(data, size, maxSize)
    }
    mutated.copyBytes(to: data, count: mutated.count)
    return mutated.count
  }

  /// libFuzzer's driver, which parses the fuzzer's options and runs the inputs.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The entry point SwiftPM links an executable's `main` to: it hands over to libFuzzer.
  @_cdecl("forager_fuzz_main")
  public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzz)
  }
#else
  /// Without libFuzzer: replays inputs (crash files, a corpus) given as paths, or writes the
  /// honest seed batches into a folder to start a corpus from (`--seeds DIR`).
  @main
  struct ForagerFuzz {
    static func main() throws {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if arguments.first == "--seeds", arguments.count == 2 {
        let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, seed) in try BatchFuzzHarness.seeds().enumerated() {
          try seed.write(to: folder.appendingPathComponent("seed-\(index)"))
        }
        return
      }
      guard !arguments.isEmpty else {
        print("usage: forager-fuzz FILE…   (replay inputs; build with Scripts/fuzz.sh to fuzz)\n       forager-fuzz --seeds DIR")
        exit(2)
      }
      let harness = try BatchFuzzHarness()
      for path in arguments {
        try harness.feed(try Data(contentsOf: URL(fileURLWithPath: path)))
        print("\(path): synced")
      }
    }
  }
#endif
