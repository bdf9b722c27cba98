public import Model

/// Imports Model here and Persistence only inside `#if` (Store.swift): both count as uses.
public struct Engine {}
