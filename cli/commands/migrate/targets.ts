/**
 * What `tdl migrate run` and `verify` talk to: the old table (its account
 * and its name there) and each new design table's account and name
 * (`--to-table Readings=ReadingsV2`), all checked before any request — a
 * re-keyed table written beside its old one needs a name of its own.
 */
import { mapTables, type MigrationPlan, type ServiceName, type TableMapping } from "@core";
import { UsageError } from "@core/errors";
import { AccountSession, type MigrationTarget } from "@runtime";
import { accountOf, JOB_SESSION, sessionOf } from "../../account";
import { tableName } from "../../validate";
import type { Designs } from "./designs";

export interface MigrationSides {
  source: AccountSession;
  sourceTable: string;
  mapping: TableMapping;
  targets: MigrationTarget[];
  targetService: ServiceName;
}

interface SideOptions {
  table?: string;
  "connection-string-env"?: string;
  "account-url"?: string;
  "from-table"?: string;
  "to-table"?: string;
  "to-connection-string-env"?: string;
  "to-account-url"?: string;
  "to-service"?: ServiceName;
}

/** The two sides of a run or a verify, every name checked. */
export function sidesOf(d: Designs, plan: MigrationPlan, o: SideOptions, action: string): MigrationSides {
  if (plan.tables.length > 1)
    throw new UsageError(
      `${d.oldFile} has ${plan.tables.length} tables to migrate (${plan.tables.map((t) => t.table).join(", ")}): choose one with --table`,
    );
  const design = plan.tables[0].table;
  const mapping = mapTables(
    d.old.tables.filter((t) => t.table.name.text === design),
    d.next.tables,
  )[0];
  const targetService = o["to-service"] ?? (d.next.profile.name as ServiceName);
  const sourceTable = o["from-table"] ?? design;
  tableName("from-table", sourceTable, d.old.profile.name as ServiceName);
  const names = new Map<string, string>();
  for (const pair of o["to-table"]?.split(",") ?? []) {
    const [from, to] = pair.split("=");
    if (to === undefined || !from)
      throw new UsageError(`--to-table takes TABLE=NAME (a new design's table, its name in the account), not '${pair.slice(0, 40)}'`);
    if (!mapping.targets.some((t) => t.table === from))
      throw new UsageError(
        `--to-table ${from}: ${d.newFile} has no table '${from}' that ${design} fills (${mapping.targets.map((t) => t.table).join(", ")})`,
      );
    tableName("to-table", to, targetService);
    names.set(from, to);
  }
  if (o["connection-string-env"] === undefined && o["account-url"] === undefined)
    throw new UsageError(`migrate ${action} needs the old table's account: --connection-string-env VAR or --account-url URL`);
  const elsewhere = o["to-connection-string-env"] !== undefined || o["to-account-url"] !== undefined;
  const named = mapping.targets.map((t) => {
    const table = names.get(t.table) ?? t.table;
    if (!names.has(t.table)) tableName("to-table", table, targetService);
    if (!elsewhere && table.toLowerCase() === sourceTable.toLowerCase())
      throw new UsageError(
        `the new ${t.table} would be written into ${sourceTable}, the old table itself: give it a name of its own with --to-table ${t.table}=NAME`,
      );
    return { design: t.table, table };
  });
  // Every name is checked before an account is read.
  const source = sessionOf(o, JOB_SESSION);
  const toEnv = o["to-connection-string-env"];
  const toUrl = o["to-account-url"];
  const target = elsewhere
    ? (({ connection, secret }) => new AccountSession(connection, secret, JOB_SESSION))(accountOf(toEnv, toUrl, "to-"))
    : source;
  const targets = named.map((t) => ({ ...t, session: target }));
  return { source, sourceTable, mapping, targets, targetService };
}
