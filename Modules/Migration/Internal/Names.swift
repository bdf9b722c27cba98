import Model

/// GRDB also declares a `Record` type; in this module the name means Forager's record.
typealias Record = Model.Record
