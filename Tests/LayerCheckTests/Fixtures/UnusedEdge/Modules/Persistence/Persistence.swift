/// The fixture package's Persistence module.
public struct PersistenceMarker {}
