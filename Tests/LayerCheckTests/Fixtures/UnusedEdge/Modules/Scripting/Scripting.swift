/// The fixture package's Scripting module.
public struct ScriptingMarker {}
