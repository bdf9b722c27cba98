/// The fixture package's Repositories module.
public struct RepositoriesMarker {}
