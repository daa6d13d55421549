/**
 * The plan of a migration from one design to another (`tdl migrate plan`,
 * the *Plan the Migration* page): per old table, the rows each entity
 * becomes and how each key is computed, what cannot be derived (refused
 * before anything is written), the write amplification, the backfill's time
 * at the chosen share of the target profile's account target, its cost in
 * transactions (and request units on Cosmos DB for Table: 1 per KiB read, 5
 * per KiB written, as the peak-load model counts them), and the steps in
 * order. Pure: two analyses in, one plan out.
 */
import type { TdlAnalysis } from "../analysis/analyze";
import type { ServiceProfile } from "../services";
import type { Expr } from "../tdl/ast";
import { mapTables, sourceWords, TableMapping } from "./mapping";

/** Entities a backfill reads per page (the service's page). */
const PAGE = 1000;

export interface PlannedRow {
  table: string;
  label: string;
  partitionKey: string;
  rowKey: string;
}

export interface TablePlan {
  table: string;
  /** Each new row per old entity, its keys as the new design writes them. */
  rows: PlannedRow[];
  /** Each property the new keys render, and where it comes from (in words). */
  components: Array<{ prop: string; usedBy: string[]; from: string }>;
  /** The new key components that have no source: the migration is refused while any is. */
  refused: Array<{ prop: string; usedBy: string[]; reason: string }>;
  /** Old entities: the design's `rows`, or the caller's count. */
  entities?: number;
  /** Rows written per old entity. */
  amplification: number;
  writes?: number;
  /** Reads: the pages of the old table, and a key-only re-read of each page (a row deleted meanwhile is not brought back). */
  reads?: number;
  transactions?: number;
  /** Request units, on a Cosmos DB for Table target. */
  requestUnits?: number;
  /** Seconds at the share of the target's account target (undefined when the profile publishes none, or the size is unknown). */
  seconds?: number;
  /** The entities per second the backfill may write at that share. */
  rate?: number;
}

export interface MigrationPlan {
  share: number;
  targetService: string;
  tables: TablePlan[];
  /** Every refused component of every table, for the exit code. */
  refused: Array<{ table: string; prop: string; usedBy: string[]; reason: string }>;
  steps: string[];
}

export interface PlanOptions {
  /** Only this old table. */
  table?: string;
  /** Share of the target's account target the backfill may use (0..1]. */
  share: number;
  /** The target's profile (default: the new design's). */
  target?: ServiceProfile;
  /** Old entities, instead of the design's `rows`. */
  entities?: number;
  /** Names for the files in the steps. */
  oldFile?: string;
  newFile?: string;
}

/** The migration plan from `old` to `next`. */
export function planMigration(old: TdlAnalysis, next: TdlAnalysis, o: PlanOptions): MigrationPlan {
  const profile = o.target ?? next.profile;
  const olds = old.tables.filter((t) => !o.table || t.table.name.text === o.table);
  const mappings = mapTables(olds, next.tables).filter((m) => m.targets.length);
  const tables = mappings.map((m) => tablePlan(m, profile, o));
  return {
    share: o.share,
    targetService: profile.name,
    tables,
    refused: tables.flatMap((t) => t.refused.map((r) => ({ table: t.table, ...r }))),
    steps: steps(tables, o),
  };
}

const exprText = (t: TableMapping["targets"][number], e: Expr) => t.model.text.slice(e.start, e.end);

function tablePlan(m: TableMapping, profile: ServiceProfile, o: PlanOptions): TablePlan {
  const table = m.source.table.name.text;
  const rows = m.targets.flatMap((t) =>
    t.rows.map((r) => ({ table: t.table, label: r.label, partitionKey: exprText(t, r.partitionKey), rowKey: exprText(t, r.rowKey) })),
  );
  const declared = m.source.table.rows?.value.value;
  const entities = o.entities ?? (declared !== undefined && Number.isFinite(declared) ? declared : undefined);
  const amplification = rows.length;
  const plan: TablePlan = {
    table,
    rows,
    components: m.components.map((c) => ({ prop: c.prop, usedBy: c.usedBy, from: sourceWords(c) })),
    refused: m.missing.map((c) => ({
      prop: c.prop,
      usedBy: c.usedBy,
      reason: `${c.usedBy.join(" and ")} render${c.usedBy.length > 1 ? "" : "s"} ${c.prop}, which ${table} in the old design neither declares nor renders in a key that gives it back`,
    })),
    entities,
    amplification,
  };
  if (entities === undefined) return plan;
  const pages = Math.ceil(entities / PAGE);
  plan.writes = entities * amplification;
  plan.reads = pages * 2;
  plan.transactions = plan.writes + plan.reads;
  if (profile.partitionTarget?.unit === "RU/s") {
    const kib = Math.max(1, Math.ceil((m.source.table.entitySize?.value.value ?? 1024) / 1024));
    plan.requestUnits = plan.writes * 5 * kib + entities * kib * 2;
  }
  if (profile.accountTargetEntitiesPerSecond !== undefined) {
    plan.rate = profile.accountTargetEntitiesPerSecond * o.share;
    plan.seconds = plan.writes / plan.rate;
  }
  return plan;
}

function steps(tables: TablePlan[], o: PlanOptions): string[] {
  const oldFile = o.oldFile ?? "OLD.tdl";
  const newFile = o.newFile ?? "NEW.tdl";
  const targets = [...new Set(tables.flatMap((t) => t.rows.map((r) => r.table)))];
  const sources = tables.map((t) => t.table);
  return [
    `Create the new tables (${targets.join(", ")}) (\`tdl migrate run\` creates them; in the old table's account a re-keyed table needs a name of its own, --to-table)`,
    `Deploy the dual writes: \`tdl codegen --migration ${oldFile} ${newFile}\` writes a module whose writes and deletes go to both designs`,
    `Backfill: \`tdl migrate run ${oldFile} ${newFile}\` re-keys every old entity and inserts only what is absent, so a newer dual write always wins (resumable)`,
    `Verify: \`tdl migrate verify ${oldFile} ${newFile}\` compares entity by entity through the key mapping (--repair resolves each difference toward the newer write)`,
    `Switch reads to the new design`,
    `Stop writing the old design (drop the dual writes)`,
    `Delete the old table${sources.length > 1 ? "s" : ""} (${sources.join(", ")}) with \`tdl delete\``,
  ];
}
