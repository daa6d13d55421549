/**
 * The typed message protocol between the panel host (extension) and the
 * pages it shows, shared by both sides. `Views` declares, per page, its
 * start state (sent in `init` after the page says `ready`), its requests
 * (params → result; each gets exactly one response) and the events the host
 * pushes. The host validates every request against its declared shape and
 * the `LIMITS` below; the page gets a client typed by its own view, so the
 * heatmap page cannot even name `entities.delete`.
 *
 * Credentials never cross it: connecting with a secret happens in VS Code's
 * own input boxes, on the host.
 */
import type { ConnectionInfo, EntityRow, PageResult, QueryResult } from "./entities";
import type { StressReport } from "./stress-report";
import type { TrafficSecond } from "./traffic";
import type { LogHeatmap } from "./log-heatmap";
import type { FilterProperty } from "./filter-words";
import type { ImportChoices, ImportPlanSummary, ImportReport } from "./transfer";
import type { Classification } from "@core";
import type { ErrorKind } from "@core/errors";

export type TransferFormat = "json" | "csv";

/** A request without parameters: the page sends `{}`. */
export type NoParams = Record<string, never>;

/** An entity as the page read it: its keys and the ETag of that version. */
export interface EntityVersion {
  partitionKey: string;
  rowKey: string;
  etag: string;
}

/** Which entities an export writes: what the current filter returns, or every entity of the table. */
export type ExportScope = "result" | "table";

/** How an export ended: written to `file`, cancelled after `read` entities (nothing written), or no file chosen. */
export type ExportOutcome =
  { outcome: "saved"; exported: number; file: string } | { outcome: "cancelled"; read: number } | { outcome: "declined" };

/** How an export to a folder ended: every range read (`done`), stopped part-way (`cancelled`: a rerun resumes), or no folder chosen. */
export type BulkExportOutcome =
  | { outcome: "declined" }
  | {
      outcome: "done" | "cancelled";
      dir: string;
      /** Entities written so far, in all. */
      entities: number;
      ranges: number;
      rangesDone: number;
      /** It went on from an earlier, unfinished export in that folder. */
      resumed: boolean;
      /** The export's checksum (manifest.json), when every range was read. */
      checksum?: string;
    };

/** What a delete of many entities did. */
export interface BulkDeleteOutcome {
  /** Entities the count found. */
  matched: number;
  deleted: number;
  /** Changed since they were counted: kept. */
  changed: number;
  /** Gone already when their turn came. */
  gone: number;
  /** Not attempted: the job was cancelled (they are still in the table). */
  notAttempted: number;
  /** Cancelled while a batch was on its way: deleted whole or not at all, no answer says which. */
  inDoubt?: number;
  /** The file holding the deleted entities' keys, one JSON line each (none when nothing was deleted). */
  log?: string;
  /** Cancelled while counting (`matched`: found so far): nothing was deleted. */
  cancelledWhileCounting?: true;
}

/** A message for the user and, behind a "details" toggle, the service's own answer (redacted). */
export interface Notice {
  message: string;
  details?: string;
}

/** The table explorer's requests. */
export interface ExplorerRequests {
  /** Starts (or finds) the embedded emulator and connects to it. */
  "connect.emulator": { params: NoParams; result: ConnectionInfo };
  /** The host asks for the connection string, SAS token or account URL in VS Code's own inputs. */
  "connect.prompt": { params: NoParams; result: ConnectionInfo | null };
  /**
   * Makes a stored connection the active one once it has answered (its
   * tables listed); a connection that fails leaves the active one as it was.
   */
  "connection.select": { params: { id: string }; result: { tables: string[] } };
  "connection.remove": { params: { id: string }; result: { connections: ConnectionInfo[] } };
  "tables.list": { params: NoParams; result: string[] };
  "table.create": { params: { name: string }; result: string[] };
  /** Asks the user to confirm first; null when they decline. */
  "table.delete": { params: { name: string }; result: string[] | null };
  /** The next page of a query: the same `filter` and `select` as the query whose token it continues. */
  "entities.page": { params: { table: string; continuationToken?: string; filter?: string; select?: string[] }; result: PageResult };
  "entity.get": { params: { table: string; partitionKey: string; rowKey: string }; result: EntityRow };
  "entity.insert": { params: { table: string; row: EntityRow }; result: EntityRow };
  /** Whether the entity is among what `filter` returns, as the service judges it (one point query). */
  "entity.matches": { params: { table: string; filter: string; partitionKey: string; rowKey: string }; result: boolean };
  /** Replaces the entity only if it still has the ETag it was read with (never `*`). */
  "entity.update": { params: { table: string; row: EntityRow; etag: string }; result: EntityRow };
  /**
   * Deletes each entity only if it still has the ETag it was read with;
   * asks the user to confirm first (null when they decline). `kept`: changed
   * since they were read, left as they are; `missing`: already gone.
   * `operation` names the work for `progress` events and `operation.cancel`.
   */
  "entities.delete": {
    params: { table: string; entities: EntityVersion[]; operation?: string };
    result: { deleted: number; kept: number; missing: number } | null;
  };
  "query.run": {
    params: { table: string; filter: string; select?: string[]; limit?: number };
    result: QueryResult & { classification: Classification | null };
  };
  /** The properties seen in a sample of the table, for completion: each with its type when every sampled value has that one. */
  "columns.sample": { params: { table: string }; result: FilterProperty[] };
  /**
   * The dry run of an import, before anything is written: the file read
   * (a dialog when no `plan` is named; null when none was chosen) and
   * planned with `choices` — what would be written, the types per column,
   * the problems per record. Naming `plan` plans the same file again with
   * other choices. One plan at a time: a new file replaces the one before.
   */
  "import.plan": {
    params: { table: string; format: TransferFormat; choices: ImportChoices; plan?: string };
    result: { plan: string; file: string; summary: ImportPlanSummary } | null;
  };
  /**
   * Writes the planned file with `choices` (planned again: what is written
   * is what the dry run said), each partition batch whole or not at all; a
   * refused plan writes nothing. `entities`: what the plan would write.
   */
  "import.run": {
    params: { table: string; plan: string; choices: ImportChoices; operation?: string };
    result: ImportReport & { entities: number };
  };
  /** `scope` "result": the entities `filter` (and `select`) return; "table": every entity. */
  "data.export": {
    params: { table: string; format: TransferFormat; scope: ExportScope; filter?: string; select?: string[]; operation?: string };
    result: ExportOutcome;
  };
  /**
   * Exports every entity of the table to a folder the user picks, as
   * `tdl export` does (runtime/bulk/export.ts): a file per key range and a
   * manifest with counts and checksums; a folder holding an unfinished
   * export of the table resumes it.
   */
  "bulk.export": { params: { table: string; operation?: string }; result: BulkExportOutcome };
  /**
   * Deletes what `filter` matches — every entity without one (Clear
   * Table…) — as `tdl delete` does: counted first, confirmed with the count
   * (null when declined), deleted a partition batch at a time, each entity
   * only if unchanged since it was counted; the deleted keys go to a file.
   */
  "bulk.delete": { params: { table: string; filter?: string; operation?: string }; result: BulkDeleteOutcome | null };
  /** Cancels the running operation the page named; false when it is not running (any more). */
  "operation.cancel": { params: { operation: string }; result: boolean };
  /**
   * Runs VS Code's "Infer a Design from a Table…" on `table` of the active
   * connection (it asks for the sample size and opens the design); answered
   * once the command has ended.
   */
  "design.infer": { params: { table: string }; result: null };
}

/** The stress report's requests. */
export interface ReportRequests {
  /** Opens the emulator's key-space heatmap. */
  "heatmap.open": { params: NoParams; result: null };
}

/**
 * The heatmap's requests. Live it only listens; a heatmap of logs asks the
 * host to set the logs against a design table of the workspace (or none),
 * the design's rates × `scale` (a stress run's scale, as typed): the host
 * remembers the choice for the workspace.
 */
export interface HeatmapRequests {
  "heatmap.compare": { params: LogDesignChoice; result: LogComparison };
}

/** A design of the workspace (its label), one of its tables, and the scale of the design's rates; all absent: no design. */
export interface LogDesignChoice {
  design?: string;
  table?: string;
  /** A positive number as the user typed it ("0.0063"); absent: 1. */
  scale?: string;
}

/** The logs set against the chosen design: each listed partition with its design key, and the comparison (absent: no design). */
export interface LogComparison {
  partitions: LogHeatmap["partitions"];
  design?: LogHeatmap["design"];
  choice: LogDesignChoice;
}

/** Progress of a long operation (`operation`: delete, count, import, export); `id` is the name the page gave it. */
export type ProgressEvent = { type: "progress"; operation: string; id?: string; done: number; total?: number };
/**
 * The stored connections and the active one. `tables` comes with a change
 * of the active connection: the tables it listed when it answered.
 */
export type ConnectionsEvent = { type: "connections"; connections: ConnectionInfo[]; active?: string; tables?: string[] };
/** Something the host has to tell the page outside an answer (a connection it could not restore). */
export type NoticeEvent = { type: "notice"; notice: Notice };
/**
 * One second of traffic. The host also sends seconds without traffic (no
 * partitions), so time passes on the heatmap when the emulator is idle; a
 * second may come more than once (traffic first, or an empty one first):
 * the page adds them up.
 */
export type TrafficEvent = { type: "traffic"; second: TrafficSecond };

/**
 * The heatmap's start state: the emulator's recent seconds and the host's
 * clock (live: `traffic` events follow), or a heatmap of a service's logs —
 * its cells in `seconds` (one per bucket of `logs.bucketMs`), the rest in
 * `logs` (partitions, the design beside them, notes); nothing follows.
 */
export interface HeatmapState {
  seconds: TrafficSecond[];
  now?: number;
  logs?: Omit<LogHeatmap, "seconds"> & {
    title: string;
    /** The workspace's designs and their tables with a PartitionKey, to set the logs against. */
    designs?: Array<{ label: string; tables: string[] }>;
    /** The choice the comparison shown was made with (remembered for the workspace). */
    choice?: LogDesignChoice;
  };
}

/** The stress report page's state: one run, or two side by side when designs are compared. */
export interface ReportState {
  runs: Array<{ label: string; report: StressReport }>;
}

/** Every page: its start state, its requests and the events it receives (its registration is in `PAGES`). */
export interface Views {
  explorer: {
    state: { connections: ConnectionInfo[]; active?: string; notice?: Notice };
    requests: ExplorerRequests;
    events: ProgressEvent | ConnectionsEvent | NoticeEvent;
  };
  report: { state: ReportState; requests: ReportRequests; events: never };
  heatmap: { state: HeatmapState; requests: HeatmapRequests; events: TrafficEvent };
}

export type ViewName = keyof Views;

/**
 * A command of the extension as VS Code shows it. The one list of them is
 * `COMMANDS` (commands.ts); `package.json`'s `contributes.commands`, its
 * menus and its `onCommand` activation events are generated from it.
 */
export interface CommandSpec {
  readonly id: `tableDesign.${string}`;
  /** The title in the command palette (category "Table Design"). */
  readonly title: string;
  /** A codicon for menus and the status bar, `$(name)`. */
  readonly icon?: `$(${string})`;
  /** Hidden from the command palette: it needs the arguments a CodeLens or a fix passes. */
  readonly palette?: false;
  /** Activates the extension (`onCommand:`): the command works before any design or code is open. */
  readonly activates?: true;
}

/** How a page is opened and restored; the page itself is `webview/<view>/page.ts`, its host `client/pages/<view>.ts`. */
export interface PageEntry {
  /** The panel's id (VS Code's `viewType`). */
  readonly panel: `tableDesign.${string}`;
  /** The panel's title (a page opened with arguments may give its own). */
  readonly title: string;
  /** The command that opens the page, named `name` in `COMMANDS`. */
  readonly command?: CommandSpec & { readonly name: string };
  /** VS Code brings the panel back after a reload (`onWebviewPanel:` activation, a panel serializer). */
  readonly restores?: true;
}

/**
 * The registry of pages: one entry per view of `Views` (the compiler checks
 * both ways). The host wiring, the page's dispatch in the webview, the
 * commands that open pages and the manifest's activation events come from it.
 */
export const PAGES = {
  explorer: {
    panel: "tableDesign.explorer",
    title: "Table Explorer",
    command: { name: "openExplorer", id: "tableDesign.openExplorer", title: "Open Table Explorer", icon: "$(database)", activates: true },
    restores: true,
  },
  report: { panel: "tableDesign.stressReport", title: "Stress test" },
  heatmap: {
    panel: "tableDesign.heatmap",
    title: "Key-space heatmap",
    command: { name: "showHeatmap", id: "tableDesign.showHeatmap", title: "Show the Emulator's Key-space Heatmap", activates: true },
  },
} as const satisfies { readonly [V in ViewName]: PageEntry };

/** The views, in the registry's order. */
export const VIEW_NAMES = Object.keys(PAGES) as ViewName[];
export type StateOf<V extends ViewName> = Views[V]["state"];
export type RequestsOf<V extends ViewName> = Views[V]["requests"];
export type MethodOf<V extends ViewName> = keyof RequestsOf<V> & string;
export type ParamsOf<V extends ViewName, M extends MethodOf<V>> = RequestsOf<V>[M] extends { params: infer P } ? P : never;
export type ResultOf<V extends ViewName, M extends MethodOf<V>> = RequestsOf<V>[M] extends { result: infer R } ? R : never;
export type EventOf<V extends ViewName> = Views[V]["events"];

/** The start message of one view. */
export type InitOf<V extends ViewName> = { type: "init"; view: V; state: StateOf<V> };
/** The start message of whichever view the host shows (narrow it on `view`). */
export type InitMessage = { [V in ViewName]: InitOf<V> }[ViewName];

/**
 * The answer to one request. A failure carries its kind (core/errors.ts),
 * so the page shows it as the other front ends do: a sentence, the details
 * behind a toggle, and for an `internal` one where its stack was logged.
 */
export type ResponseMessage =
  | { type: "response"; id: number; ok: true; result: unknown }
  | { type: "response"; id: number; ok: false; error: string; kind: ErrorKind; details?: string };

export type HostToWebview<V extends ViewName = ViewName> = InitOf<V> | ResponseMessage | { type: "event"; event: EventOf<V> };

/** What a well-behaved page sends; the host checks every field before believing it. */
export type WebviewToHost = { type: "ready" } | { type: "request"; id: number; method: string; params: unknown };

/** What a page may ask of the host: only its own view's requests. */
export interface PageClient<V extends ViewName> {
  request<M extends MethodOf<V>>(method: M, params: ParamsOf<V, M>): Promise<ResultOf<V, M>>;
  onEvent(listener: (event: EventOf<V>) => void): void;
}

/**
 * Bounds on what a page may send. Each is far above what the page needs and
 * at or above what the service accepts (keys ≤ 1 KiB, ≤ 252 properties, an
 * entity ≤ 1 MiB), so the host refuses only input no service would take,
 * before it costs memory or time.
 */
export const LIMITS = {
  /** Characters in one request, counting every string and key (checked before anything else). */
  requestChars: 4 * 1024 * 1024,
  /** Nesting depth of one request (the deepest shape, an entity's property value, is 5). */
  depth: 12,
  /** Requests of one page awaiting their answer at the same time. */
  inFlight: 32,
  /** Length of a method name. */
  method: 64,
  /** PartitionKey and RowKey, in characters. */
  key: 1024,
  etag: 256,
  /** An OData `$filter`, in characters. */
  filter: 32 * 1024,
  continuationToken: 16 * 1024,
  connectionId: 256,
  /** User properties of one entity (Azure: 255 including PartitionKey, RowKey, Timestamp). */
  properties: 252,
  propertyName: 255,
  /** One property value as text (a 1 MiB entity holds 512 Ki UTF-16 characters). */
  value: 512 * 1024,
  /** Entities named in one request (a delete of the selected rows). */
  entitiesPerRequest: 10_000,
  /** Rows one query may return to the page. */
  queryRows: 100_000,
  /** Characters of a file to import, and entities in it. */
  importChars: 256 * 1024 * 1024,
  importRows: 1_000_000,
  /** Characters of an error message sent back to the page. */
  errorChars: 1_000,
  /** Characters of an error's details (the service's own answer) sent back to the page. */
  detailChars: 4_000,
  /** Length of the name a page gives a long operation (to follow and cancel it). */
  operationId: 64,
} as const;
