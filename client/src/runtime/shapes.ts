/**
 * The data the table runtime hands to pages: entities, connections, query
 * costs and stress reports. Types, and the report's number words (pure
 * functions), so the webview can import them without the runtime's Node code.
 */
export type { ConnectionInfo, ConnectionKind, EdmType, EntityRow, PageResult, QueryCost, QueryResult, TypedValue } from "./account/model";
export type { OperationReport, StressMode, StressReport } from "./stress/report";
export type { PatternReport } from "./stress/report";
export type { Calibration, Verdict } from "./stress/verdict";
export type { OpType, TimelinePoint } from "./stress/metrics";
export { entityRate, errorsInWords, formatCount, plural } from "./stress/words";
