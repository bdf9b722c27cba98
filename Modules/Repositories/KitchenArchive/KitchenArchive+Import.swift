import Foundation
import Model
import Persistence

extension Library {
  /// Imports a kitchen archive through the repositories' rules, in one transaction.
  ///
  /// Each record is matched to the kitchen's own by semantic key (an existing "produce"
  /// category is the archive's "Produce"; an ingredient also by alias) or, for kinds
  /// without a unique key, by id and then by key; a match takes the archive's value for
  /// every field the archive gives (a restore brings back what was saved), a record the
  /// kitchen lacks is created with the archive's id when that id is free. Records the
  /// archive does not name are left as they are, except the ingredient lines of a recipe
  /// it names, which follow that recipe. Importing the same file again changes nothing.
  ///
  /// Every record is checked before it is written, with the rules the commands and the
  /// stores apply (names, text limits, control characters, numbers in range, dates,
  /// weeks), and every relationship must name a record of the archive; the first record
  /// that breaks one undoes the whole import.
  ///
  /// ```swift
  /// let summary = try library.importKitchen(try KitchenArchive.read(path: "kitchen.json"))
  /// summary.changedNothing  // true for a second import of the same file
  /// ```
  /// - Parameters:
  ///   - document: the archive read.
  ///   - dryRun: check and count everything, then undo it: nothing is written.
  ///   - progress: called with records done, records in all, and the kind being read.
  /// - Throws: ``KitchenArchiveError/invalidRecord(_:record:field:reason:)`` naming the
  ///   kind, the record and the field, or the store's error; nothing is written then.
  public func importKitchen(
    _ document: KitchenArchiveDocument, dryRun: Bool = false, progress: ((Int, Int, String) -> Void)? = nil
  ) throws -> KitchenArchiveSummary {
    // A dry run undoes its transaction by throwing; inside a caller's transaction that
    // would undo nothing.
    if dryRun && context.isBound {
      throw RepositoryError.invalidValue(field: "dry-run", value: "kitchen", reason: "a dry run cannot join an open transaction")
    }
    var result: KitchenArchiveSummary?
    do {
      try context.write { writer in
        var run = KitchenArchiveImport(document: document, writer: writer, context: context, dryRun: dryRun)
        try run.importAll(progress: progress)
        result = run.summary
        if dryRun { throw DryRunRollback() }
      }
    } catch is DryRunRollback {
    }
    guard let result else { throw KitchenArchiveError.brokenJSON("the import produced no summary") }
    return result
  }
}

/// Thrown to undo a dry run's transaction.
private struct DryRunRollback: Error {}

/// The kinds in an order where every relationship points at a kind already imported:
/// categories before the ingredients and stores that name them, recipes before their
/// lines and the meals planned with them.
enum KitchenArchiveOrder {
  static let kinds: [EntityKind] = {
    var done: [EntityKind] = []
    var left = EntityKind.allCases
    while !left.isEmpty {
      let ready = left.filter { kind in
        kind.schema.relationships.allSatisfy { field in
          guard let target = field.type.referencedKind, target != kind else { return true }
          return done.contains(target)
        }
      }
      // The schema has no cycle between kinds; should one appear, the rest go in order.
      let next = ready.isEmpty ? left : ready
      done += next
      left.removeAll { next.contains($0) }
    }
    return done
  }()
}
