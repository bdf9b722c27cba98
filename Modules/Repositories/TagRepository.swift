public import Model
import Normalization
import Persistence

/// Recipe tags, unique by normalized name.
public struct TagRepository {
  let context: RepositoryContext

  var operations: UniqueKindOperations<Tag> {
    UniqueKindOperations(
      context: context,
      key: SemanticKey.normalizedName,
      make: { meta, name, key in Tag(meta: meta, displayName: name, normalizedName: key) },
      renamed: { tag, name, key in
        var tag = tag
        tag.displayName = name
        tag.normalizedName = key
        return tag
      }
    )
  }

  /// The tag with this name's key, created when missing; `color` is set on creation or
  /// when given for an existing tag.
  public func getOrCreate(_ name: String, color: String? = nil) throws -> Tag {
    try context.write { writer in
      var (tag, _) = try operations.getOrCreate(name, in: writer)
      if let color, tag.color != color {
        tag.color = color
        try writer.save(tag, at: context.now())
      }
      return tag
    }
  }

  /// The live tag with this name (normalized) or id, if any.
  public func find(_ nameOrID: String) throws -> Tag? { try operations.find(nameOrID) }

  /// Every live tag.
  public func all() throws -> [Tag] { try context.read { try operations.all(in: $0) } }

  /// Renames a tag, refusing a name another tag already has.
  public func rename(_ nameOrID: String, to newName: String) throws -> Tag {
    try context.write { try operations.rename(nameOrID, to: newName, in: $0) }
  }

  /// Deletes a tag and removes it from every recipe.
  public func delete(_ nameOrID: String) throws -> Tag {
    try context.write { try operations.delete(nameOrID, in: $0) }
  }
}
