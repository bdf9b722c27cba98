// A stand-in for Modules/Persistence: the Store's mutating API is protocol StoreWriter.
public protocol StoreReader {
  func record(id: Int) throws -> Record?
}

public protocol StoreWriter {
  func insertRecord(_ record: Record) throws
  func updateRecord(_ record: Record) throws
  func tombstoneRecord(id: Int) throws
  func setMetadata(_ key: String, _ value: String) throws
}

extension StoreWriter {
  public func insertRecords(_ records: [Record]) throws {
    for record in records {
      try insertRecord(record)
    }
  }
}
