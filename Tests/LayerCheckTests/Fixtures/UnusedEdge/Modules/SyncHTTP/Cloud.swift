internal import Sync

/// Declares SyncWire in the fixture package and imports nothing of it.
public struct Cloud {}
