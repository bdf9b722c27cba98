import Foundation
import Model
import Persistence

func viaSelfInit(_ r: Record) throws -> Category {
  try Category.self.init(record: r)
}

func make<E: Entity>(_: E.Type, _ r: Record) throws -> E {
  try E(record: r)
}

func makeUnique<E>(_ type: E.Type, _ r: Record) throws -> E where E: UniqueEntity {
  try type.init(record: r)
}

func viaExistential(_ kind: any Entity.Type, _ r: Record) throws -> any Entity {
  try kind.init(record: r)
}

struct Maker<E: Entity> {
  func make(_ r: Record) throws -> E { try E.init(record: r) }
}

extension SQLiteStoreWriter {
  func replant(_ r: Record) throws {
    let put = updateRecord(_:)
    try put(r)
    let insert = insertRecord
    try insert(r)
  }
}

func pushDecoded(_ cloud: any CloudStore, _ data: Data) throws {
  let batch = try JSONDecoder().decode(ChangeBatch.self, from: data)
  _ = try cloud.push(batch)
}
