/**
 * Where Azurite's `$batch` reads an entity group transaction otherwise than
 * Azure does, corrected or refused before it reaches Azurite (whichever
 * client sent it: the SDK's submitTransaction as much as the bulk jobs).
 *
 * - Azurite finds an operation's JSON body with a pattern that stops at a
 *   line terminator, so a raw U+2028 or U+2029 in a string (JSON allows them
 *   unescaped, and JSON.stringify leaves them so) loses the body: an insert
 *   is refused, an upsert writes the entity without any of its properties.
 *   Corrected: they are sent on as the JSON escapes `\u2028` and `\u2029`,
 *   the same string to any JSON reader (and Azure's answer is the same).
 * - Azurite reads the keys out of the operation's URL with greedy patterns:
 *   the PartitionKey runs to the last `',` of the URL, so a RowKey holding
 *   `',` (or starting with a comma) moves part of itself into the
 *   PartitionKey and the entity is written under another key; a key with a
 *   line terminator is not found at all. Refused: the first operation whose
 *   keys Azurite would read otherwise than its URL says, by its index, with
 *   a 400 that says so — Azure takes these keys, so the message names the
 *   emulator's limit and the way around it (the entity in a request of its
 *   own, whose keys Azurite reads right).
 */
import type { BatchFailure } from "./answers";
import type { BatchOperation } from "./batch";

/** The JSON escapes of the two line terminators JSON leaves raw: one string to any JSON reader. */
export function escapeLineSeparators(body: string): string {
  return body.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Azurite's readings of an operation URL's keys (TableBatchOrchestrator): greedy, and blind past a line terminator. */
const AZURITE_PARTITION_KEY = /(?<=PartitionKey=')(.*)(?=',)/i;
const AZURITE_ROW_KEY = /(?<=RowKey=')(.+)(?='\))/i;

/** The keys Azurite takes for an operation: from its URL, else from its body; undefined when it cannot read the URL at all. */
export function azuriteKeys(op: BatchOperation): { partitionKey?: string; rowKey?: string } | undefined {
  if (op.target === undefined) return undefined;
  let url: string;
  try {
    url = decodeURIComponent(op.target);
  } catch {
    return undefined;
  }
  const pk = AZURITE_PARTITION_KEY.exec(url);
  const rk = AZURITE_ROW_KEY.exec(url);
  const body = op.entity;
  return {
    partitionKey: pk ? pk[0].replace(/''/g, "'") : text(body?.PartitionKey),
    rowKey: rk ? rk[0].replace(/''/g, "'") : body ? text(body.RowKey) : "",
  };
}

/** The first operation whose keys Azurite would read otherwise than they are, as a refusal naming its index. */
export function misreadKeys(ops: readonly BatchOperation[]): BatchFailure | undefined {
  for (const op of ops) {
    if (op.partitionKey === undefined || op.rowKey === undefined) continue;
    const read = azuriteKeys(op);
    if (!read || (read.partitionKey === op.partitionKey && read.rowKey === op.rowKey)) continue;
    return {
      index: op.index,
      ...(op.contentId !== undefined ? { contentId: op.contentId } : {}),
      status: 400,
      code: "InvalidInput",
      message: `One of the request inputs is not valid: the emulator cannot carry the keys of operation ${op.index} in a $batch (PartitionKey ${shown(op.partitionKey)}, RowKey ${shown(op.rowKey)}: Azurite reads them as ${shown(read.partitionKey)} and ${shown(read.rowKey)}). Azure takes them; on the emulator, send this entity in a request of its own.`,
    };
  }
  return undefined;
}

/** A key as a quoted string with every line terminator escaped: a raw U+2028 in the answer would cut the client's reading of it. */
function shown(key: string | undefined): string {
  return key === undefined ? "none" : JSON.stringify(key).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function text(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}
