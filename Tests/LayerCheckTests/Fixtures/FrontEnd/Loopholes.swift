import Model
import Persistence

// A record copied under a new id and inserted with an implicit self.
extension SQLiteStoreWriter {
  func plant(_ record: Record) throws {
    try insertRecord(record)
  }
}

struct Importer {
  let store: any StoreWriter
  func run() throws {
    try setMetadata("x", forKey: "y")
  }
}

// An entity made through its metatype.
func viaMetatype() -> Category {
  let T = Category.self
  return T.init(displayName: "Produce")
}

func viaParameter(_ kind: Category.Type) -> Category {
  kind.init(displayName: "Dairy")
}

func viaAnnotation() -> Category {
  let made: Category.Type = Model.Category.self
  return made.init(displayName: "Bakery")
}

// A change pushed to the cloud by hand.
func pushByHand(_ cloud: any CloudStore, id: UUID) throws {
  let change = RecordChange(kind: .category, id: id, createdAt: Date(), updatedAt: Date(), ownerID: "me", sharingScope: .private, fields: [:])
  _ = try cloud.push(ChangeBatch(id: "x", replica: "y", schemaVersion: 3, changes: [change]))
}
