/**
 * The services a design can target, in one table: each profile's limits and
 * targets, each number with its source (docs/service-facts.md). Every list of
 * service names — the language's `service` line, `--service`, the
 * `tableDesign.service` setting's enum, the grammar — derives from it
 * (test/unit/core/services.test.ts checks package.json and the grammar).
 */

/** What a service allows and targets. */
export interface ServiceLimits {
  label: string;
  /** Max bytes of a PartitionKey / RowKey value. */
  partitionKeyMaxBytes: number;
  rowKeyMaxBytes: number;
  /** Bytes a key character costs: 2 (UTF-16) on Azure; UTF-8 elsewhere (1 ASCII, 3 worst case). */
  keyEncoding: "utf16" | "utf8";
  /** Characters keys may not hold; undefined where the service forbids none. */
  forbiddenKeyChar?: (code: number) => boolean;
  /** Those characters in words, for messages: `/ \ # ? and control characters`. */
  forbiddenKeyText?: string;
  entityMaxBytes: number;
  /** User properties allowed (excluding PartitionKey, RowKey, Timestamp); Infinity where unbounded. */
  maxUserProperties: number;
  /** Largest string or binary property; Infinity where only the entity limit applies. */
  propertyMaxBytes: number;
  batchMaxOperations: number;
  batchMaxBytes: number;
  /** Per-partition target; `ru` counts request units (1 per KiB read, 5 per KiB written). */
  partitionTarget?: { value: number; unit: "entities/s" | "RU/s"; source: string };
  /** Data per partition: a hard limit (error) or guidance (warning). */
  partitionSize?: { bytes: number; hard: boolean; source: string };
  accountTargetEntitiesPerSecond?: number;
  queryPageMax: number;
  /** A key that is exactly one integer property sorts numerically (Tablestore integer PK columns). */
  integerKeysSortNumerically: boolean;
  /** Results come back in PartitionKey/RowKey order. */
  sorted: boolean;
  tableName: { pattern: RegExp; rule: string; reserved: string[] };
}

const KiB = 1024;
const MiB = 1024 * KiB;
const GB = 1024 * MiB;

/**
 * The characters Azure refuses in PartitionKey and RowKey: `/` `\` `#` `?`,
 * U+0000–U+001F, U+007F–U+009F (the partitioning guide's "Table service data
 * model"). The one set: the profiles, the emulator's fidelity layer and the
 * explorer's error messages use it.
 */
export function azureForbiddenKeyChar(c: number): boolean {
  return c === 0x2f || c === 0x5c || c === 0x23 || c === 0x3f || c <= 0x1f || (c >= 0x7f && c <= 0x9f);
}

/** The same set in words. */
export const AZURE_FORBIDDEN_KEY_TEXT = "/ \\ # ? and control characters";

const TABLE = {
  "azure-table": {
    label: "Azure Table Storage",
    partitionKeyMaxBytes: KiB, // seeds 000/003/004: keys up to 1 KiB (UTF-16: 512 characters)
    rowKeyMaxBytes: KiB,
    keyEncoding: "utf16", // service-facts: strings are UTF-16 on Azure; Azurite enforces the same
    forbiddenKeyChar: azureForbiddenKeyChar,
    forbiddenKeyText: AZURE_FORBIDDEN_KEY_TEXT,
    entityMaxBytes: MiB, // entity ≤ 1 MiB
    maxUserProperties: 252, // 255 including PartitionKey, RowKey, Timestamp
    propertyMaxBytes: 64 * KiB, // string / binary property ≤ 64 KiB
    batchMaxOperations: 100, // entity group transaction: ≤ 100 operations, < 4 MiB
    batchMaxBytes: 4 * MiB,
    partitionTarget: {
      value: 2000,
      unit: "entities/s",
      source: "the performance checklist's 'Scalability targets': 2,000 entities/s per partition",
    },
    accountTargetEntitiesPerSecond: 20000, // the performance checklist: 20,000 entities/s per account (1 KiB entities)
    queryPageMax: 1000, // ≤ 1,000 entities or 5 s per response
    integerKeysSortNumerically: false,
    sorted: true, // PartitionKey then RowKey, ascending, lexical
    tableName: { pattern: /^[A-Za-z][A-Za-z0-9]{2,62}$/, rule: "3–63 letters and digits, not starting with a digit", reserved: ["tables"] },
  },
  "cosmos-table": {
    label: "Azure Cosmos DB for Table",
    partitionKeyMaxBytes: KiB, // Cosmos DB: PartitionKey ≤ 1 KiB (2 KiB for large keys)
    rowKeyMaxBytes: 255, // Cosmos DB: id (RowKey) ≤ 255 bytes
    keyEncoding: "utf8",
    forbiddenKeyChar: azureForbiddenKeyChar, // same Table API, same characters
    forbiddenKeyText: AZURE_FORBIDDEN_KEY_TEXT,
    entityMaxBytes: 2 * 1000 * 1000, // Cosmos DB: item ≤ 2 MB
    maxUserProperties: 252, // same Table API limit
    propertyMaxBytes: Infinity, // no separate property limit: the item limit applies
    batchMaxOperations: 100,
    batchMaxBytes: 2 * 1000 * 1000, // Cosmos DB transactional batch ≤ 2 MB
    partitionTarget: { value: 10000, unit: "RU/s", source: "Cosmos DB: 10,000 RU/s per physical partition" },
    partitionSize: { bytes: 20 * GB, hard: true, source: "Cosmos DB: 20 GB per logical partition" },
    queryPageMax: 1000,
    integerKeysSortNumerically: false,
    sorted: false, // Cosmos DB for Table does not sort results by PartitionKey/RowKey
    tableName: { pattern: /^[A-Za-z][A-Za-z0-9]{2,62}$/, rule: "3–63 letters and digits, not starting with a digit", reserved: ["tables"] },
  },
  tablestore: {
    label: "Alibaba Cloud Tablestore",
    partitionKeyMaxBytes: KiB, // Tablestore's best practices: string/binary primary-key column ≤ 1 KB
    rowKeyMaxBytes: KiB,
    keyEncoding: "utf8",
    entityMaxBytes: Infinity, // row size unbounded; each attribute value ≤ 2 MB (the seed's older 64 KB)
    maxUserProperties: Infinity, // unbounded (< 10,000 advised)
    propertyMaxBytes: 2 * 1000 * 1000,
    batchMaxOperations: 200, // BatchWriteRow ≤ 200 rows / 4 MB
    batchMaxBytes: 4 * 1000 * 1000,
    partitionSize: {
      bytes: 10 * GB,
      hard: false,
      source: "Tablestore: ≤ 10 GB per partition-key value advised (Tablestore's best practices: 1 GB)",
    },
    queryPageMax: 5000, // GetRange ≤ 5,000 rows / 4 MB per call
    integerKeysSortNumerically: true, // integer primary-key columns sort numerically
    sorted: true,
    tableName: {
      pattern: /^[A-Za-z_][A-Za-z0-9_]{0,254}$/,
      rule: "1–255 letters, digits and underscores, not starting with a digit",
      reserved: [],
    },
  },
} satisfies Record<string, ServiceLimits>;

/**
 * The highest rate of calls a design, a `--rate` or a scaled rate may ask
 * for: ten times the largest ceiling any profile's account publishes
 * (Cosmos DB's 1,000,000 RU/s per account before a support request; Table
 * Storage's is 20,000 entities/s). Beyond it no account serves the load,
 * and a price or a run of it would be a figure of nothing.
 */
export const MAX_RATE_PER_SECOND = 10_000_000;

/** A service a design may name: `service azure-table`, `--service tablestore`. */
export type ServiceName = keyof typeof TABLE;

/** A service's limits, with its name. */
export type ServiceProfile = ServiceLimits & { name: ServiceName };

/** Every service name, in the table's order. */
export const SERVICE_NAMES = Object.keys(TABLE) as ServiceName[];

/** Every service profile, by name. */
export const SERVICES = Object.fromEntries(SERVICE_NAMES.map((name) => [name, { name, ...TABLE[name] }])) as Readonly<
  Record<ServiceName, ServiceProfile>
>;

/** Whether a string (a setting, a flag, a line of a design) names a service. */
export function isServiceName(value: unknown): value is ServiceName {
  return typeof value === "string" && Object.hasOwn(TABLE, value);
}

/** The profile of `name`, else of `fallback`, else Azure's (a setting may hold any string). */
export function profileFor(name: ServiceName | undefined, fallback: ServiceName = "azure-table"): ServiceProfile {
  for (const n of [name, fallback]) if (isServiceName(n)) return SERVICES[n];
  return SERVICES["azure-table"];
}
