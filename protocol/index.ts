/**
 * The protocol between the extension's panel hosts and the pages they show,
 * and the shapes that cross it: entities and connections, query costs,
 * stress reports and emulator traffic. Types and pure values only, so a page
 * imports them without the runtime's Node code.
 */
export type { ConnectionInfo, ConnectionKind, EdmType, EntityRow, PageResult, QueryCost, QueryResult, TypedValue } from "./entities";
export { EDM_TYPES } from "./entities";
export type {
  Calibration,
  EngineInfo,
  Leftover,
  OperationReport,
  OpType,
  PatternReport,
  Skipped,
  StressMode,
  StressReport,
  TimelinePoint,
  Verdict,
} from "./stress-report";
export { OP_TYPES } from "./stress-report";
export type { PartitionTraffic, TrafficSecond } from "./traffic";
export * from "./pages";
