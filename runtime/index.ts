/**
 * The table runtime: accounts (connections, sessions, SAS, secrets kept out
 * of messages), the embedded emulator with Azure fidelity, and partition
 * stress tests. Free of `vscode`: the extension and the CLI both import it
 * here, through this one entry point.
 */
// Accounts
export { makeClients } from "./account/clients";
export type { Secret } from "./account/secret";
export { cleanConnection, interpretConnectionInput, readSasToken } from "./account/connection-input";
export { ConnectionStringError, isLoopback, parseConnectionString } from "./account/connection-string";
export { AccountError, ConflictError } from "./account/errors";
export { AccountSession } from "./account/session";
export type { SessionOptions } from "./account/session";
export { checkLiveData, liveSummary } from "./account/live-check";
export { holdsSecret, redact } from "./account/redact";
export { planImport, serialize } from "./transfer/plan";
export type { ImportPlan } from "./transfer/plan";
export { TransferError } from "./transfer/records";

// The embedded emulator
export { FidelityEmulator } from "./emulator/fidelity-emulator";
export { readEmulatorSelf, SELF_HEADER, SELF_PATH } from "./emulator/fidelity/self";
export type { EmulatorSelf } from "./emulator/fidelity/self";

// Stress tests
export { describeLeftover, findLeftovers, removeLeftovers } from "./stress/cleanup";
export type { LeftoverTable } from "./stress/cleanup";
export { proposedAlternative } from "./stress/compare";
export { buildStressJob, checkDesign, runStress, STRESS_DEFAULTS, StressFailure, StressInputError, StressRefused } from "./stress/engine";
export type { StressHooks, StressJob, StressLimits, StressPlan, StressRequest, StressTarget } from "./stress/engine";
export { PHASE_WORDS } from "./stress/phases";
export { endpointHost } from "./net/endpoint-host";
export type { StressPhase } from "./stress/phases";

// Stress tests on Locust: the export, a local master and workers, records back into the report, sizing
export { designForLocust, findLocust, LOCUST_INSTALL, readMeta, reportFromRecords, runLocustStress, sizingText } from "./locust/index";
export type { LocustEngineOptions, Sizing } from "./locust/index";
export { chooseEngine, ENGINES, LOCUST_WORKERS, runOn } from "./locust/engines";
export type { EngineName, StressEngine } from "./locust/engines";
export { prepareExport } from "./locust/prepare";
export type { LocustExport, LocustExportOptions } from "./locust/prepare";

// Inferring a design from a live table
export { inferDesign } from "./infer/infer";
export type { DesignCheck, InferOptions, InferResult, SampleMeta } from "./infer/infer";
export { inferFromTable, InferError } from "./infer/from-table";
export type { TableInference } from "./infer/from-table";
export { sampleTable } from "./infer/sample";
export { sessionReader } from "./infer/sample-reader";
export type { PageReader, Sample, SampleOptions } from "./infer/sample";
export { histogramLines } from "./infer/partition-stats";

// Bulk jobs: export, import, verify, copy, delete
export { exportTable } from "./bulk/export";
export type { ExportOptions, ExportResult } from "./bulk/export";
export { importTable } from "./bulk/import";
export type { ImportOptions, ImportResult, SkippedLine } from "./bulk/import";
export { verifyTable } from "./bulk/verify";
export type { Verification } from "./bulk/verify";
export { copyTable } from "./bulk/copy";
export { runBackfill, backfillState, EXPORT_FOLDER } from "./migrate/backfill";
export type { BackfillOptions, BackfillReport, BackfillResult, MigrationTarget } from "./migrate/backfill";
export { verifyMigration } from "./migrate/compare";
export type { Difference, DifferenceKind, VerifyOptions, VerifyReport } from "./migrate/compare";
export type { CopyResult } from "./bulk/copy";
export { planDelete, runDelete, selectionFilter, LogWriteError } from "./bulk/delete";
export { jobPaths } from "./bulk/pace";
export { IF_EXISTS, occupiedSentence } from "./bulk/occupied";
export type { IfExists } from "./bulk/occupied";
export { loadManifest } from "./bulk/manifest";
export { DamagedFolderError } from "./bulk/folder";
export { throttleNote, ThrottledPath, BULK_BACKOFF } from "./net/throttled";
export type { RetryNotice } from "./net/throttled";
export { AdaptivePace, Pace } from "./net/pace";
export type { PaceState } from "./net/pace";
export type { DeletePlan, DeleteReport, DeleteSelection } from "./bulk/delete";

// Prices for cost estimates: the snapshot, the cache, the Retail Prices API
export { cacheFolder, refreshPrices, sheetFor } from "./prices/retail";
export type { SheetChoice } from "./prices/retail";

// Heatmaps from the service's own logs (StorageTableLogs, $logs, Cosmos DB's partition-key RU consumption)
export { readLogHeatmap, nothingReadable, MAX_LISTED } from "./logs/read-logs";
export type { LogHeatmapOptions } from "./logs/read-logs";
export { comparableTables, compareWithDesign } from "./logs/design";
export { heatmapHtml } from "./logs/html";
