import Logging
public import PostgresNIO

/// The server's tables, in numbered steps: `setUp` applies the steps a database does not
/// have yet, records each in `forager_schema`, and refuses a database written by a newer
/// server. Steps are only ever added.
///
/// Every table of a household's data carries `household_id` first in its keys: it is the
/// distribution column should the database be sharded by household (Docs/SERVER.md).
public enum PostgresSchema {
  /// The schema version this build writes.
  public static var version: Int { steps.count }

  static let steps: [[PostgresQuery]] = [
    // 1: households, devices, tokens, the log.
    [
      """
      CREATE TABLE households (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL UNIQUE,
        identifier uuid NOT NULL UNIQUE,
        last_sequence bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL)
      """,
      """
      CREATE TABLE devices (
        household_id bigint NOT NULL REFERENCES households (id),
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        replica_id text,
        last_device_sequence bigint NOT NULL DEFAULT 0,
        registered_name text,
        schema_version integer NOT NULL DEFAULT 0,
        last_seen timestamptz,
        created_at timestamptz NOT NULL,
        UNIQUE (household_id, name))
      """,
      """
      CREATE TABLE tokens (
        id text PRIMARY KEY,
        hash bytea NOT NULL UNIQUE,
        household_id bigint NOT NULL REFERENCES households (id),
        device_id bigint NOT NULL REFERENCES devices (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz)
      """,
      """
      CREATE TABLE batches (
        household_id bigint NOT NULL REFERENCES households (id),
        sequence bigint NOT NULL,
        batch_id text NOT NULL,
        device_id bigint NOT NULL REFERENCES devices (id),
        device_sequence bigint NOT NULL,
        replica_id text NOT NULL,
        schema_version integer NOT NULL,
        payload bytea NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (household_id, sequence),
        UNIQUE (household_id, batch_id),
        UNIQUE (household_id, device_id, device_sequence))
      """,
    ],
    // 2: the oldest schema a household takes pushes from.
    ["ALTER TABLE households ADD COLUMN minimum_schema integer NOT NULL DEFAULT 1"],
    // 3: a push in one round trip when it is the device's next batch (PostgresHouseholdStorage.append).
    [
      """
      CREATE FUNCTION forager_append_next(
        p_household bigint, p_device bigint, p_batch text, p_device_sequence bigint, p_replica text,
        p_schema integer, p_payload bytea, p_received timestamptz) RETURNS bigint
      LANGUAGE plpgsql AS $$
      DECLARE
        v_sequence bigint;
      BEGIN
        -- The same lock as every push of the household, held to the end of the statement's
        -- transaction: batches commit in sequence order.
        PERFORM pg_advisory_xact_lock(p_household);
        -- Only the plain case (PushRules' append): a new batch id, the device's next
        -- sequence, its own replica. Anything else returns NULL having written nothing.
        IF EXISTS (SELECT 1 FROM batches WHERE household_id = p_household AND batch_id = p_batch) THEN
          RETURN NULL;
        END IF;
        PERFORM 1 FROM devices
          WHERE id = p_device AND household_id = p_household AND last_device_sequence = p_device_sequence - 1
            AND (replica_id IS NULL OR replica_id = p_replica)
          FOR UPDATE;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        UPDATE households SET last_sequence = last_sequence + 1 WHERE id = p_household RETURNING last_sequence INTO v_sequence;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        UPDATE devices SET last_device_sequence = p_device_sequence, replica_id = p_replica WHERE id = p_device;
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
          VALUES (p_household, v_sequence, p_batch, p_device, p_device_sequence, p_replica, p_schema, p_payload, p_received);
        RETURN v_sequence;
      END
      $$
      """
    ],
    // 4: a replica is bound to one device of a household (PushRules' replica-taken). Where an
    // earlier server let two devices of a household bind one replica, the device that pushed
    // with it first keeps it (then the lowest device id, when neither pushed); the others are
    // unbound, so setup-db never fails on such a database, and their next push or registration
    // is refused naming the device that holds it (Docs/SERVER.md, "Replicas").
    [
      """
      UPDATE devices SET replica_id = NULL
      WHERE id IN (
        SELECT id FROM (
          SELECT d.id, row_number() OVER (
            PARTITION BY d.household_id, d.replica_id
            ORDER BY (SELECT min(b.sequence) FROM batches b
                      WHERE b.household_id = d.household_id AND b.device_id = d.id AND b.replica_id = d.replica_id) NULLS LAST,
                     d.id) AS rank
          FROM devices d WHERE d.replica_id IS NOT NULL) ranked
        WHERE rank > 1)
      """,
      "CREATE UNIQUE INDEX devices_household_replica ON devices (household_id, replica_id) WHERE replica_id IS NOT NULL",
    ],
    // 5: batch ids are unique per device (a device names its batches after its replica), and
    // held batches can be retired: a retired batch is marked, and the notice that tells the
    // devices belongs to no device (device_id and device_sequence NULL). forager_append_next
    // takes the plain push under the rules of steps 4 and 5.
    [
      "ALTER TABLE batches DROP CONSTRAINT batches_household_id_batch_id_key",
      "ALTER TABLE batches ADD CONSTRAINT batches_household_id_device_id_batch_id_key UNIQUE (household_id, device_id, batch_id)",
      """
      ALTER TABLE batches
        ALTER COLUMN device_id DROP NOT NULL,
        ALTER COLUMN device_sequence DROP NOT NULL,
        ADD CONSTRAINT batches_notice_has_no_device CHECK ((device_id IS NULL) = (device_sequence IS NULL)),
        ADD COLUMN retired_at timestamptz
      """,
      """
      CREATE OR REPLACE FUNCTION forager_append_next(
        p_household bigint, p_device bigint, p_batch text, p_device_sequence bigint, p_replica text,
        p_schema integer, p_payload bytea, p_received timestamptz) RETURNS bigint
      LANGUAGE plpgsql AS $$
      DECLARE
        v_sequence bigint;
      BEGIN
        -- The same lock as every push of the household, held to the end of the statement's
        -- transaction: batches commit in sequence order.
        PERFORM pg_advisory_xact_lock(p_household);
        -- Only the plain case (PushRules' append): a batch id that starts with the batch's
        -- replica and ':', new for this device, the device's next sequence, and its own
        -- replica or one no other device of the household holds. Anything else returns NULL
        -- having written nothing. (Batches of a newer schema never come here: their quota is
        -- decided by PushRules.)
        IF NOT starts_with(p_batch, p_replica || ':') THEN
          RETURN NULL;
        END IF;
        IF EXISTS (SELECT 1 FROM batches WHERE household_id = p_household AND device_id = p_device AND batch_id = p_batch) THEN
          RETURN NULL;
        END IF;
        PERFORM 1 FROM devices
          WHERE id = p_device AND household_id = p_household AND last_device_sequence = p_device_sequence - 1
            AND (replica_id = p_replica
                 OR (replica_id IS NULL
                     AND NOT EXISTS (SELECT 1 FROM devices o WHERE o.household_id = p_household AND o.replica_id = p_replica)))
          FOR UPDATE;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        UPDATE households SET last_sequence = last_sequence + 1 WHERE id = p_household RETURNING last_sequence INTO v_sequence;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        UPDATE devices SET last_device_sequence = p_device_sequence, replica_id = p_replica WHERE id = p_device;
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
          VALUES (p_household, v_sequence, p_batch, p_device, p_device_sequence, p_replica, p_schema, p_payload, p_received);
        RETURN v_sequence;
      END
      $$
      """,
    ],
    // 6: whatever changes what a credential says — a token revoked, its expiry moved or the
    // token deleted, a household's minimum schema, name or identifier, a device renamed or
    // deleted — notifies forager_credentials as it commits, by plain SQL or another tool as
    // much as by forager-server, so every server drops its cached credentials at once
    // (Docs/SERVER.md, "Lookups are cached"). Pushes update other columns and notify nothing.
    [
      """
      CREATE FUNCTION forager_notify_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('forager_credentials', '');
        RETURN NULL;
      END
      $$
      """,
      """
      CREATE TRIGGER tokens_notify_credentials AFTER UPDATE OR DELETE ON tokens
        FOR EACH STATEMENT EXECUTE FUNCTION forager_notify_credentials()
      """,
      """
      CREATE TRIGGER households_notify_credentials AFTER UPDATE OF minimum_schema, name, identifier OR DELETE ON households
        FOR EACH STATEMENT EXECUTE FUNCTION forager_notify_credentials()
      """,
      """
      CREATE TRIGGER devices_notify_credentials AFTER UPDATE OF name OR DELETE ON devices
        FOR EACH STATEMENT EXECUTE FUNCTION forager_notify_credentials()
      """,
    ],
    // 7: every batch appended — a push through any server, a retirement notice — notifies
    // forager_log with '<household id>:<sequence>' as it commits, so every server's live
    // subscribers hear of it (Docs/SERVER.md, "Live"). Notifications carry no batch bytes.
    [
      """
      CREATE FUNCTION forager_notify_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('forager_log', NEW.household_id::text || ':' || NEW.sequence::text);
        RETURN NULL;
      END
      $$
      """,
      """
      CREATE TRIGGER batches_notify_log AFTER INSERT ON batches
        FOR EACH ROW EXECUTE FUNCTION forager_notify_log()
      """,
    ],
    // 8: household quotas (Docs/SERVER.md, "Household quota"). Each household counts the bytes
    // its log holds and the bytes its devices pushed on one UTC day (days since 1970, from the
    // batch's received_at, the server's clock), kept by a trigger on batches in the appending
    // transaction; its own quota (NULL: the server's default). forager_append_next takes the
    // server's defaults and returns NULL for a push past the quota, which PushRules then refuses.
    [
      """
      ALTER TABLE households
        ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0,
        ADD COLUMN pushed_day integer NOT NULL DEFAULT 0,
        ADD COLUMN pushed_bytes bigint NOT NULL DEFAULT 0,
        ADD COLUMN quota_stored_bytes bigint,
        ADD COLUMN quota_daily_push_bytes bigint
      """,
      """
      UPDATE households h
      SET stored_bytes = COALESCE((SELECT sum(octet_length(b.payload)) FROM batches b WHERE b.household_id = h.id), 0)
      """,
      """
      CREATE FUNCTION forager_count_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        v_day integer;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          v_day := floor(extract(epoch FROM NEW.received_at) / 86400)::integer;
          UPDATE households SET
            stored_bytes = stored_bytes + octet_length(NEW.payload),
            pushed_bytes = CASE WHEN NEW.device_id IS NULL THEN pushed_bytes
                                WHEN pushed_day = v_day THEN pushed_bytes + octet_length(NEW.payload)
                                ELSE octet_length(NEW.payload) END,
            pushed_day = CASE WHEN NEW.device_id IS NULL THEN pushed_day ELSE v_day END
          WHERE id = NEW.household_id;
        ELSE
          UPDATE households SET stored_bytes = stored_bytes + octet_length(NEW.payload) - octet_length(OLD.payload)
          WHERE id = NEW.household_id;
        END IF;
        RETURN NULL;
      END
      $$
      """,
      """
      CREATE TRIGGER batches_count_bytes AFTER INSERT OR UPDATE OF payload ON batches
        FOR EACH ROW EXECUTE FUNCTION forager_count_bytes()
      """,
      "DROP FUNCTION forager_append_next(bigint, bigint, text, bigint, text, integer, bytea, timestamptz)",
      """
      CREATE FUNCTION forager_append_next(
        p_household bigint, p_device bigint, p_batch text, p_device_sequence bigint, p_replica text,
        p_schema integer, p_payload bytea, p_received timestamptz, p_max_stored bigint, p_max_daily bigint) RETURNS bigint
      LANGUAGE plpgsql AS $$
      DECLARE
        v_sequence bigint;
        v_day integer := floor(extract(epoch FROM p_received) / 86400)::integer;
      BEGIN
        -- The same lock as every push of the household, held to the end of the statement's
        -- transaction: batches commit in sequence order.
        PERFORM pg_advisory_xact_lock(p_household);
        -- Only the plain case (PushRules' append), as in step 5, and within the household's
        -- quota (its own, else the server's p_max_stored and p_max_daily). Anything else
        -- returns NULL having written nothing.
        IF NOT starts_with(p_batch, p_replica || ':') THEN
          RETURN NULL;
        END IF;
        IF EXISTS (SELECT 1 FROM batches WHERE household_id = p_household AND device_id = p_device AND batch_id = p_batch) THEN
          RETURN NULL;
        END IF;
        PERFORM 1 FROM households
          WHERE id = p_household
            AND stored_bytes + octet_length(p_payload) <= COALESCE(quota_stored_bytes, p_max_stored)
            AND CASE WHEN pushed_day = v_day THEN pushed_bytes ELSE 0 END + octet_length(p_payload)
                <= COALESCE(quota_daily_push_bytes, p_max_daily);
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        PERFORM 1 FROM devices
          WHERE id = p_device AND household_id = p_household AND last_device_sequence = p_device_sequence - 1
            AND (replica_id = p_replica
                 OR (replica_id IS NULL
                     AND NOT EXISTS (SELECT 1 FROM devices o WHERE o.household_id = p_household AND o.replica_id = p_replica)))
          FOR UPDATE;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        UPDATE households SET last_sequence = last_sequence + 1 WHERE id = p_household RETURNING last_sequence INTO v_sequence;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        UPDATE devices SET last_device_sequence = p_device_sequence, replica_id = p_replica WHERE id = p_device;
        INSERT INTO batches (household_id, sequence, batch_id, device_id, device_sequence, replica_id, schema_version, payload, received_at)
          VALUES (p_household, v_sequence, p_batch, p_device, p_device_sequence, p_replica, p_schema, p_payload, p_received);
        RETURN v_sequence;
      END
      $$
      """,
    ],
    // 9: snapshots, a household's joined states at a log position, in pages (SnapshotStore).
    [
      """
      CREATE TABLE snapshots (
        household_id bigint NOT NULL REFERENCES households (id) ON DELETE CASCADE,
        position bigint NOT NULL,
        schema_version integer NOT NULL,
        page_count integer NOT NULL,
        records integer NOT NULL,
        bytes bigint NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (household_id, position))
      """,
      """
      CREATE TABLE snapshot_pages (
        household_id bigint NOT NULL,
        position bigint NOT NULL,
        page integer NOT NULL,
        payload bytea NOT NULL,
        PRIMARY KEY (household_id, position, page),
        FOREIGN KEY (household_id, position) REFERENCES snapshots (household_id, position) ON DELETE CASCADE)
      """,
    ],
    // 10: compaction (Docs/SERVER.md, "Compaction"): a household's floor (batches up to it
    // were dropped) and each device's pulled position (the highest place a pull of it
    // started after, raised by the page's statement).
    [
      "ALTER TABLE households ADD COLUMN compacted_through bigint NOT NULL DEFAULT 0",
      "ALTER TABLE devices ADD COLUMN pulled_through bigint NOT NULL DEFAULT 0",
    ],
  ]

  /// A key for `pg_advisory_xact_lock` that serializes schema setup (household locks use
  /// household ids, which are positive).
  static let setupLock: Int64 = -0x466F_7261_6765

  /// Creates or upgrades the schema; the version it leaves (``version``).
  /// - Throws: ``PostgresStorageError/schemaNewer(database:found:known:)`` for a newer database.
  @discardableResult
  public static func setUp(_ client: PostgresClient, database: String, logger: Logger) async throws -> Int {
    try await setUp(client, database: database, logger: logger, through: version)
  }

  /// Applies the steps up to `target` (tests build a database an earlier server left).
  static func setUp(_ client: PostgresClient, database: String, logger: Logger, through target: Int) async throws -> Int {
    try await PostgresTransaction.run(MeteredPool(client: client), logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(setupLock))", logger: logger)
      try await connection.query(
        "CREATE TABLE IF NOT EXISTS forager_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
        logger: logger)
      let found = try await current(connection, logger: logger)
      guard found <= version else { throw PostgresStorageError.schemaNewer(database: database, found: found, known: version) }
      for (index, step) in steps.enumerated() where index + 1 > found && index + 1 <= target {
        for statement in step { try await connection.query(statement, logger: logger) }
        try await connection.query("INSERT INTO forager_schema (version) VALUES (\(index + 1))", logger: logger)
      }
      return max(found, min(target, version))
    }
  }

  /// The database's schema version (0: none).
  static func current(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
    let rows = try await connection.query("SELECT COALESCE(MAX(version), 0) FROM forager_schema", logger: logger)
    for try await found in rows.decode(Int.self) { return found }
    return 0
  }

  /// Refuses a database without this build's schema.
  static func check(_ client: PostgresClient, database: String, logger: Logger) async throws {
    try await client.withConnection { connection in
      let exists = try await connection.query("SELECT to_regclass('forager_schema') IS NOT NULL", logger: logger)
      for try await flag in exists.decode(Bool.self) where !flag { throw PostgresStorageError.schemaMissing(database: database) }
      let found = try await current(connection, logger: logger)
      if found > version { throw PostgresStorageError.schemaNewer(database: database, found: found, known: version) }
      if found < version { throw PostgresStorageError.schemaOlder(database: database, found: found, known: version) }
    }
  }
}

/// A transaction whose refusals (a ``SyncServer`` rule, a schema error) come out as
/// themselves rather than wrapped in postgres-nio's transaction error.
enum PostgresTransaction {
  static func run<Result: Sendable>(
    _ pool: MeteredPool, logger: Logger, _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    do {
      return try await pool.withConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
      }
    } catch let error as PostgresTransactionError {
      if let inner = error.closureError, error.rollbackError == nil, !(inner is PSQLError) { throw inner }
      throw error
    }
  }
}
