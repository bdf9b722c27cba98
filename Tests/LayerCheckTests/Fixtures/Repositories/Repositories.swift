// A stand-in for Modules/Repositories: fix hints name the repository's methods.
public struct CategoryRepository {
  public func getOrCreate(displayName: String) throws -> Category { fatalError() }
}

public struct RecipeRepository {
  public func create(displayName: String) throws -> Recipe { fatalError() }
}
