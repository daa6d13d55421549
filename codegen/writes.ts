/**
 * Writing entities as the design says: every row of an entity (the main row
 * and one per `index`, the dual-row pattern) built from the same values and
 * written in one entity group transaction, and one helper per declared
 * `transaction` that checks what the design promises (the shared values,
 * one partition, the batch limit) before it submits.
 */
import { ServiceProfile, TableModel } from "@core";
import { KeyPlan } from "./keys";
import { PropertyPlan } from "./properties";
import { Runtime } from "./runtime";
import { commentText, objectKey, Source, str } from "./source";

type Transaction = Extract<TableModel["table"]["accesses"][number], { kind: "transaction" }>;

export interface WriteTable {
  name: string;
  entity: string;
  props: PropertyPlan[];
  pk: KeyPlan;
  rk: KeyPlan;
  indexes: KeyPlan[];
  profile: ServiceProfile;
  rt: Runtime;
}

/** A property value as `@azure/data-tables` must send it to keep its design type. */
function sdkValue(p: PropertyPlan): string {
  const v = `e.${p.name}`;
  switch (p.info.type) {
    // A whole number would go out untyped and come back as Int32.
    case "double":
      return `{ value: ${v}, type: "Double" }`;
    case "guid":
      return `{ value: ${v}, type: "Guid" }`;
    default:
      return v;
  }
}

/** `tableRow`, `entityRows` and `writeEntity`. */
export function emitRows(src: Source, t: WriteTable): void {
  src.doc([`One row of a ${commentText(t.name)} entity as @azure/data-tables writes it (int64 as Int64, double as Double, guid as Guid).`]);
  src.add(`function tableRow(e: ${t.entity}, partitionKey: string, rowKey: string): TableEntity {`);
  const fields = ["partitionKey", "rowKey", ...t.props.map((p) => `${objectKey(p.name)}: ${sdkValue(p)}`)];
  src.add(`return { ${fields.join(", ")} };`, 1);
  src.add("}");
  src.blank();
  const rowNames = [t.rk.label, ...t.indexes.map((ix) => ix.label)];
  src.doc([`Every row of an entity: ${commentText(rowNames.join(", "))}, in one partition.`]);
  src.add(`export function entityRows(e: ${t.entity}): TableEntity[] {`);
  src.add("const pk = partitionKey(e);", 1);
  src.add(`return [${[t.rk, ...t.indexes].map((k) => `tableRow(e, pk, ${k.fn}(e))`).join(", ")}];`, 1);
  src.add("}");
  src.blank();
  const rows = 1 + t.indexes.length;
  if (rows > t.profile.batchMaxOperations) {
    src.add(`// No writeEntity(): ${rows} rows per entity exceed one batch of ${t.profile.batchMaxOperations} operations.`);
    return;
  }
  src.doc([
    rows > 1
      ? `Writes an entity: its ${rows} rows in one entity group transaction, so they commit together or not at all.`
      : "Writes an entity's row.",
    `\`create\` fails when a row exists; \`upsert\` replaces it.`,
  ]);
  src.add(
    `export async function writeEntity(client: TableClient, e: ${t.entity}, operation: "create" | "upsert" = "upsert"): Promise<void> {`,
  );
  if (rows > 1) {
    src.add(
      `await client.submitTransaction(entityRows(e).map((row): TransactionAction => (operation === "create" ? ["create", row] : ["upsert", row, "Replace"])));`,
      1,
    );
  } else {
    src.add(`const row = tableRow(e, partitionKey(e), ${t.rk.fn}(e));`, 1);
    src.add(`if (operation === "create") await client.createEntity(row);`, 1);
    src.add(`else await client.upsertEntity(row, "Replace");`, 1);
  }
  src.add("}");
}

/** One helper per declared transaction. */
export function emitTransaction(src: Source, tx: Transaction, t: WriteTable): void {
  const rt = t.rt;
  const name = tx.name.text;
  const declared = tx.entities && Number.isFinite(tx.entities.value) ? tx.entities.value : undefined;
  const rowsPerEntity = 1 + t.indexes.length;
  const most = Math.floor(t.profile.batchMaxOperations / rowsPerEntity);
  const max = Math.min(declared ?? most, most);
  const sharing = tx.sharing.map((s) => s.text).filter((s) => t.props.some((p) => p.name === s));
  src.doc([
    `transaction ${commentText(name)}: ${declared ?? "its"} entities${sharing.length ? ` sharing ${sharing.join(", ")}` : ""}, with ${rowsPerEntity > 1 ? "all their rows" : "their rows"}, in one entity group transaction.`,
    `Throws KeyError before anything is sent when the entities break the design: ${sharing.length ? "different shared values, " : ""}different partitions or more than ${max} entities.`,
  ]);
  src.add(
    `export async function transaction${name}(client: TableClient, entities: readonly ${t.entity}[], operation: "create" | "upsert" = "upsert"): Promise<void> {`,
  );
  src.add("const [first] = entities;", 1);
  src.add(
    `if (!first || entities.length > ${max}) throw new ${rt.use("KeyError")}(\`transaction ${name} takes 1 to ${max} entities, not \${entities.length}\`);`,
    1,
  );
  for (const s of sharing) {
    src.add(
      `if (!entities.every((e) => ${rt.use("keySame")}(e.${s}, first.${s}))) throw new KeyError(${str(`transaction ${name}: the entities must share ${s}`)});`,
      1,
    );
  }
  src.add("const rows = entities.flatMap((e) => entityRows(e));", 1);
  src.add(
    `if (!rows.every((row) => row.partitionKey === rows[0]?.partitionKey)) throw new KeyError(${str(`transaction ${name}: the entities' partition keys differ, so no entity group transaction can hold them`)});`,
    1,
  );
  src.add(
    `await client.submitTransaction(rows.map((row): TransactionAction => (operation === "create" ? ["create", row] : ["upsert", row, "Replace"])));`,
    1,
  );
  src.add("}");
}
