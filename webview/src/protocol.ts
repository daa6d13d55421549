/**
 * The typed message protocol between the panel host (extension) and the
 * webview UI, shared by both sides: requests carry ids and get exactly one
 * response; the UI announces itself with `ready`; the host pushes events
 * (progress, connection changes). Credentials never cross it: connecting
 * with a secret happens in VS Code's own input boxes, on the host.
 */
import type { ConnectionInfo, EntityRow, PageResult, QueryResult } from "../../client/src/account/model";
import type { Classification } from "../../server/src/odata/classes";

export type { ConnectionInfo, EntityRow, PageResult, QueryResult, Classification };

export type TransferFormat = "json" | "csv";

/** Every request the UI can make, with its parameters and result. */
export interface Requests {
  "state.get": { params: Record<string, never>; result: { connections: ConnectionInfo[]; active?: string } };
  "connect.emulator": { params: Record<string, never>; result: ConnectionInfo };
  /** The host asks for the connection string, SAS token or account URL in VS Code's own inputs. */
  "connect.prompt": { params: Record<string, never>; result: ConnectionInfo | null };
  "connection.select": { params: { id: string }; result: { tables: string[] } };
  "connection.remove": { params: { id: string }; result: { connections: ConnectionInfo[] } };
  "tables.list": { params: Record<string, never>; result: string[] };
  "table.create": { params: { name: string }; result: string[] };
  /** Asks the user to confirm first; null when they decline. */
  "table.delete": { params: { name: string }; result: string[] | null };
  "entities.page": { params: { table: string; continuationToken?: string }; result: PageResult };
  "entity.get": { params: { table: string; partitionKey: string; rowKey: string }; result: EntityRow };
  "entity.insert": { params: { table: string; row: EntityRow }; result: EntityRow };
  /** Replaces the entity only if its ETag still matches. */
  "entity.update": { params: { table: string; row: EntityRow; etag: string }; result: EntityRow };
  "entities.delete": { params: { table: string; keys: Array<{ partitionKey: string; rowKey: string }> }; result: { deleted: number; batches: number } | null };
  "query.run": { params: { table: string; filter: string; select?: string[]; limit?: number }; result: QueryResult & { classification: Classification | null } };
  /** Property names seen in a sample of the table, for completion. */
  "columns.sample": { params: { table: string }; result: string[] };
  "data.import": { params: { table: string; format: TransferFormat }; result: { imported: number } | null };
  "data.export": { params: { table: string; format: TransferFormat; filter?: string }; result: { exported: number; file: string } | null };
  /** From the stress report: open the emulator's key-space heatmap. */
  "heatmap.open": { params: Record<string, never>; result: null };
}

export type Method = keyof Requests;

/** One second of emulator traffic, per `table/partitionKey` (the fidelity layer's recording). */
export interface TrafficSecond {
  t: number;
  partitions: Record<string, { reads: number; writes: number; throttled: number }>;
}

export type HostEvent =
  | { type: "progress"; operation: string; done: number; total?: number }
  | { type: "traffic"; second: TrafficSecond }
  | { type: "connections"; connections: ConnectionInfo[]; active?: string };

export type HostToWebview =
  | { type: "init"; view: "explorer" | "stress-report" | "heatmap"; state?: unknown }
  | { type: "response"; id: number; ok: true; result: unknown }
  | { type: "response"; id: number; ok: false; error: string }
  | { type: "event"; event: HostEvent };

export type WebviewToHost =
  | { type: "ready" }
  | { type: "request"; id: number; method: Method; params: unknown };
