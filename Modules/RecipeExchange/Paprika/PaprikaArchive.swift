public import Foundation
import ZIPFoundation

/// Reads a Paprika export (`.paprikarecipes`): a zip archive of `.paprikarecipe` entries,
/// each one recipe as gzip-compressed JSON.
///
/// Everything in the archive is untrusted. The number of entries, each entry's size
/// (compressed in the zip, inflated from the zip, and decompressed from its gzip member)
/// and the total decompressed size are bounded by ``Limits`` and checked while
/// inflating, so a zip or gzip bomb stops at the limit instead of filling memory. Entry
/// paths are only labels: nothing is ever written where they point, and an entry whose
/// path climbs out of the archive (`..`) or is absolute is ignored. A corrupt entry gives
/// its own reason and the others are still read. What macOS adds to an archive it zips
/// (`__MACOSX/`, `._` resource forks, `.DS_Store`) is passed over. The reader creates
/// nothing.
///
/// ```swift
/// let archive = try PaprikaArchive.read(contentsOf: url)
/// for entry in archive.entries { if case .recipe(let recipe) = entry.content { print(recipe.name) } }
/// ```
public struct PaprikaArchive: Sendable {
  /// How much of an archive is read.
  public struct Limits: Sendable, Hashable {
    /// The archive file itself.
    public var maximumArchiveBytes: Int
    /// The most entries read.
    public var maximumEntries: Int
    /// One entry: its gzip member as stored in the zip, and its JSON once decompressed
    /// (a recipe with its photo is well under this).
    public var maximumEntryBytes: Int
    /// Every entry's JSON together.
    public var maximumTotalBytes: Int

    /// Limits; the defaults read any real Paprika export.
    public init(
      maximumArchiveBytes: Int = 1024 * 1024 * 1024, maximumEntries: Int = 20_000, maximumEntryBytes: Int = 32 * 1024 * 1024,
      maximumTotalBytes: Int = 2 * 1024 * 1024 * 1024
    ) {
      self.maximumArchiveBytes = maximumArchiveBytes
      self.maximumEntries = maximumEntries
      self.maximumEntryBytes = maximumEntryBytes
      self.maximumTotalBytes = maximumTotalBytes
    }
  }

  /// One entry of the archive and what it gave.
  public struct Entry: Sendable, Hashable {
    /// What an entry gave: a recipe, a failure, or nothing to read.
    public enum Content: Sendable, Hashable {
      /// A recipe read from the entry.
      case recipe(ImportedRecipe)
      /// A recipe entry that could not be read: why, for the person who chose the file.
      case failed(String)
      /// Not a recipe entry (a folder, another file, a path leaving the archive): why it was skipped.
      case ignored(String)
    }

    /// The entry's path inside the archive.
    public var path: String
    /// What the entry gave.
    public var content: Content
  }

  /// Every entry of the archive, in archive order.
  public var entries: [Entry]

  /// Reads the archive at `url` (ZIPFoundation reads the file in place; it is not loaded whole).
  /// - Throws: ``PaprikaArchiveError``.
  public static func read(contentsOf url: URL, limits: Limits = Limits(), readLimits: ReadLimits = ReadLimits()) throws(PaprikaArchiveError)
    -> PaprikaArchive
  {
    let size: Int
    do {
      size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    } catch {
      throw .unreadable(error.localizedDescription)
    }
    guard size <= limits.maximumArchiveBytes else { throw .tooLarge(bytes: size, maximum: limits.maximumArchiveBytes) }
    let archive: Archive
    do {
      archive = try Archive(url: url, accessMode: .read)
    } catch {
      throw .notZip
    }
    return try read(archive, limits: limits, readLimits: readLimits)
  }

  /// Reads an archive held in memory.
  /// - Throws: ``PaprikaArchiveError``.
  public static func read(_ data: Data, limits: Limits = Limits(), readLimits: ReadLimits = ReadLimits()) throws(PaprikaArchiveError)
    -> PaprikaArchive
  {
    guard data.count <= limits.maximumArchiveBytes else { throw .tooLarge(bytes: data.count, maximum: limits.maximumArchiveBytes) }
    let archive: Archive
    do {
      archive = try Archive(data: data, accessMode: .read)
    } catch {
      throw .notZip
    }
    return try read(archive, limits: limits, readLimits: readLimits)
  }

  private static func read(_ archive: Archive, limits: Limits, readLimits: ReadLimits) throws(PaprikaArchiveError) -> PaprikaArchive {
    var listed: [ZIPFoundation.Entry] = []
    for entry in archive {
      listed.append(entry)
      if listed.count > limits.maximumEntries { throw .tooManyEntries(maximum: limits.maximumEntries) }
    }
    var entries: [Entry] = [], total = 0
    for entry in listed where !isMacMetadata(entry.path) {
      let path = entry.path
      if let reason = skipReason(entry) {
        entries.append(Entry(path: path, content: .ignored(reason)))
        continue
      }
      do {
        let json = try jsonData(of: entry, in: archive, limits: limits, total: &total)
        entries.append(Entry(path: path, content: PaprikaRecipeReader(limits: readLimits).read(json)))
      } catch .totalTooLarge {
        throw .totalTooLarge(maximum: limits.maximumTotalBytes)
      } catch {
        entries.append(Entry(path: path, content: .failed(error.description)))
      }
    }
    guard entries.contains(where: { if case .ignored = $0.content { false } else { true } }) else { throw .noRecipes }
    return PaprikaArchive(entries: entries)
  }

  /// What macOS adds to an archive it zips: everything under `__MACOSX/`, the AppleDouble
  /// resource fork `._NAME` beside each file (named like the file, `.paprikarecipe` and
  /// all, but not gzip), and `.DS_Store`. Passed over without a word, as a folder's hidden
  /// files are: they are not recipes, and not a fault of the archive.
  static func isMacMetadata(_ path: String) -> Bool {
    let components = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
    guard let name = components.last else { return false }
    return components.contains("__MACOSX") || name.hasPrefix("._") || name == ".DS_Store"
  }

  /// Why an entry is not read as a recipe, or nil for a `.paprikarecipe` entry.
  private static func skipReason(_ entry: ZIPFoundation.Entry) -> String? {
    let components = entry.path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
    if entry.path.hasPrefix("/") || entry.path.hasPrefix("\\") || components.contains("..") {
      return "ignored: its path leaves the archive"
    }
    if entry.type == .directory { return "ignored: a folder" }
    guard entry.type == .file, entry.path.lowercased().hasSuffix(".paprikarecipe") else {
      return "ignored: not a .paprikarecipe entry"
    }
    return nil
  }

  /// The entry's JSON: inflated from the zip, then from its gzip member, each bounded.
  private static func jsonData(of entry: ZIPFoundation.Entry, in archive: Archive, limits: Limits, total: inout Int) throws(EntryFailure)
    -> Data
  {
    let maximum = limits.maximumEntryBytes
    if entry.uncompressedSize > UInt64(maximum) || entry.compressedSize > UInt64(maximum) { throw .tooLarge(maximum: maximum) }
    var member = Data()
    do {
      _ = try archive.extract(entry, bufferSize: 64 * 1024, skipCRC32: false) { chunk in
        guard member.count + chunk.count <= maximum else { throw EntryFailure.tooLarge(maximum: maximum) }
        member.append(chunk)
      }
    } catch let failure as EntryFailure {
      throw failure
    } catch {
      throw .corruptZip
    }
    let json: Data
    do {
      json = try Gzip.decompress(member, maximum: maximum)
    } catch .tooLarge {
      throw .tooLarge(maximum: maximum)
    } catch .notGzip {
      throw .notGzip
    } catch {
      throw .corruptGzip
    }
    total += json.count
    if total > limits.maximumTotalBytes { throw .totalTooLarge }
    return json
  }

  /// Why one entry's bytes could not be read.
  enum EntryFailure: Error, CustomStringConvertible {
    case tooLarge(maximum: Int)
    case corruptZip, notGzip, corruptGzip, totalTooLarge

    var description: String {
      switch self {
      case .tooLarge(let maximum): "the entry is larger than \(maximum / (1024 * 1024)) MB once decompressed; not read"
      case .corruptZip: "the entry is damaged in the zip archive (bad data or checksum)"
      case .notGzip: "the entry is not gzip-compressed, as Paprika writes every recipe"
      case .corruptGzip: "the entry's gzip data is damaged (bad data or checksum)"
      case .totalTooLarge: "the archive is too large once decompressed"
      }
    }
  }
}

/// Why a Paprika archive as a whole was not read. Each case says what was wrong in
/// words for the person who chose the file; nothing is imported from it.
public enum PaprikaArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file cannot be read: why.
  case unreadable(String)
  /// The file is larger than the limit: its size and the limit, in bytes.
  case tooLarge(bytes: Int, maximum: Int)
  /// The file is not a zip archive.
  case notZip
  /// The archive has more entries than the limit.
  case tooManyEntries(maximum: Int)
  /// The entries' JSON together is larger than the limit, in bytes.
  case totalTooLarge(maximum: Int)
  /// The archive holds no recipe entry.
  case noRecipes

  /// A message saying why the archive was not read.
  public var description: String {
    switch self {
    case .unreadable(let reason): "cannot be read (\(reason))"
    case .tooLarge(let bytes, let maximum):
      "the archive is \(bytes / (1024 * 1024)) MB; archives over \(maximum / (1024 * 1024)) MB are not read"
    case .notZip: "not a Paprika archive (.paprikarecipes): it is not a zip file"
    case .tooManyEntries(let maximum): "the archive has more than \(maximum) entries; not read"
    case .totalTooLarge(let maximum):
      "the archive's recipes come to more than \(maximum / (1024 * 1024)) MB once decompressed (a zip bomb?); nothing was read"
    case .noRecipes: "the archive holds no .paprikarecipe entries"
    }
  }
}
