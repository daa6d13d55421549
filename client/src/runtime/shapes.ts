/**
 * The data the table runtime hands to pages: entities, connections, query
 * costs and stress reports. Types only, so the webview can import them
 * without the runtime's Node code.
 */
export type { ConnectionInfo, ConnectionKind, EdmType, EntityRow, PageResult, QueryCost, QueryResult, TypedValue } from "./account/model";
export type { OperationReport, StressMode, StressReport } from "./stress/report";
