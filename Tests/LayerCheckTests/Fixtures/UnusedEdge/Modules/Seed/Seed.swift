import Model

/// Declares Repositories in the fixture package and imports nothing of it.
public struct Seed {}
