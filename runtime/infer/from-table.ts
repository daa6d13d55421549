/**
 * `tdl infer` and the VS Code command share this: sample a live table
 * (sample.ts) and infer its design (infer.ts). An empty table or a table
 * that cannot be read is an `InferError` with a message a user can act on.
 */
import type { AccountSession } from "../account/session";
import { inferDesign, InferOptions, InferResult } from "./infer";
import { Sample, sampleTable, SampleOptions } from "./sample";
import { sessionReader } from "./sample-reader";
import { RefusedError } from "@core/errors";

/** An empty table, or one that cannot be read: the table has nothing to infer from. */
export class InferError extends RefusedError {}

export interface TableInference extends InferResult {
  sample: Omit<Sample, "entities">;
}

/** Reads a sample of `table` through `session` and infers its design. */
export async function inferFromTable(
  session: AccountSession,
  table: string,
  o: SampleOptions & InferOptions = {},
): Promise<TableInference> {
  const sample = await sampleTable(sessionReader(session, table), o);
  if (!sample.entities.length) {
    throw new InferError(
      sample.cancelled
        ? `cancelled before any entity of ${table} was read`
        : `the table ${table} holds no entities: there is nothing to infer a design from`,
    );
  }
  const result = inferDesign(
    sample.entities,
    {
      table,
      source: session.connection.endpoint,
      requests: sample.requests,
      elapsedMs: sample.elapsedMs,
      wholeTable: sample.wholeTable,
      tableRows: sample.tableRows,
      rowsBasis: sample.cancelled ? `${sample.rowsBasis}; reading was cancelled` : sample.rowsBasis,
      leftOut: sample.leftOut,
      partitionCounts: sample.partitionCounts,
      countComplete: sample.countComplete,
    },
    { service: o.service },
  );
  const { entities: _read, ...rest } = sample;
  void _read;
  return { ...result, sample: rest };
}
