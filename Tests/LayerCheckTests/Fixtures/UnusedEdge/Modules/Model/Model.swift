/// The fixture package's Model module.
public struct ModelMarker {}
