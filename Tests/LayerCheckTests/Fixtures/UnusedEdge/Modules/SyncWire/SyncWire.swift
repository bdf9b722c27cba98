/// The fixture package's SyncWire module.
public struct SyncWireMarker {}
