public import Model

public protocol StoreWriter {
  func insertRecord(_ record: Record) throws
}
