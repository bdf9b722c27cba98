// Placeholder until this module's sources land.
