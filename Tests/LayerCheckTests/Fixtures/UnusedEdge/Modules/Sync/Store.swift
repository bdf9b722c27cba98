#if canImport(Glibc)
  import Glibc
  @testable import struct Persistence.PersistenceMarker
#endif
