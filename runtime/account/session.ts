/**
 * An account's session (`AccountSession`): the engine of the table explorer,
 * the bulk jobs and the inference, free of `vscode`: tables, pages of entities
 * by continuation token, edits guarded by ETags, deletes batched per
 * partition, and queries with their measured cost. Every call is bounded
 * in time and reports errors a user can act on.
 */
import { ClientPair, credentialOf, makeClients } from "./clients";
import type { Secret } from "./secret";
import { AccountError, toAccountError } from "./errors";
import { SasInfo, sasTimeProblem } from "./sas";
import { TableOperation } from "./sas-grants";
import { ConnectionInfo, EntityRow, PageResult, QueryResult } from "@protocol/entities";
import { checkValue, toEntity, toRow } from "./values";
import { SERVICES } from "@core";
import type { ImportReport } from "@protocol/transfer";
import { batchesByPartition } from "./batches";
import { keepDoublesPolicy } from "./double-policy";
import { BatchAction, submitBatch } from "./batch-request";
import { queryPage } from "./query-page";

export const PAGE_SIZE = 1000;
/** Clocks differ: a SAS is refused before the call only when it is this far outside its window (the service judges the rest). */
const SAS_CLOCK_SKEW_MS = 5 * 60_000;

export interface SessionOptions {
  /** Upper bound on one request (the unreachable-endpoint case), in ms. */
  timeoutMs?: number;
  /**
   * The SDK pipeline's own retries (default 1). A bulk job sets 0: its
   * throttle-aware path retries with the guide's back-off and must hear of
   * every throttling answer to pace itself (runtime/net/throttled.ts).
   */
  sdkRetries?: number;
}

export class AccountSession {
  readonly clients: ClientPair;
  readonly timeoutMs: number;
  private readonly sharedKey: boolean;
  private readonly sas: SasInfo | undefined;

  constructor(
    readonly connection: ConnectionInfo,
    secret: Secret,
    options: SessionOptions = {},
  ) {
    // Reads keep Edm.Double on whole numbers (double-policy.ts): what is read is written back with its type.
    this.clients = makeClients(connection, secret, {
      additionalPolicies: [{ policy: keepDoublesPolicy, position: "perRetry" }],
      ...(options.sdkRetries === undefined ? {} : { retryOptions: { maxRetries: options.sdkRetries } }),
    });
    this.timeoutMs = options.timeoutMs ?? 15_000;
    ({ sharedKey: this.sharedKey, sas: this.sas } = credentialOf(connection, secret));
  }

  /**
   * Runs one SDK call with the time bound (and the caller's cancellation),
   * mapping errors. A SAS token that has clearly expired or not started yet
   * fails here, without a request. `operation` names what a refused SAS lacks
   * when the request alone does not tell (transactions).
   */
  async call<T>(fn: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal, operation?: TableOperation): Promise<T> {
    const early = this.sas && sasTimeProblem(this.sas, new Date(), SAS_CLOCK_SKEW_MS);
    if (early) throw new AccountError(early.message, early.code, 403);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    try {
      return await fn(combined);
    } catch (e) {
      if (signal?.aborted) throw new DOMException("cancelled", "AbortError");
      throw toAccountError(e, this.connection.endpoint, this.timeoutMs, { sharedKey: this.sharedKey, sas: this.sas, operation });
    }
  }

  async listTables(): Promise<string[]> {
    return this.call(async (abortSignal) => {
      const names: string[] = [];
      for await (const t of this.clients.service.listTables({ abortSignal })) if (t.name) names.push(t.name);
      return names.sort((a, b) => a.localeCompare(b));
    });
  }

  async createTable(name: string): Promise<void> {
    const rule = SERVICES["azure-table"].tableName;
    if (!rule.pattern.test(name))
      throw toAccountError({ message: `'${name}' is not a valid table name: ${rule.rule}` }, this.connection.endpoint, this.timeoutMs);
    await this.call((abortSignal) => this.clients.service.createTable(name, { abortSignal, onResponse: failOnConflict }));
  }

  async deleteTable(name: string): Promise<void> {
    await this.call((abortSignal) => this.clients.service.deleteTable(name, { abortSignal }));
  }

  /** One page of entities (1,000 by default), continuing from `continuationToken`; `signal` cancels it. */
  async page(
    table: string,
    opts: { filter?: string; select?: string[]; continuationToken?: string; pageSize?: number; signal?: AbortSignal } = {},
  ): Promise<PageResult> {
    const { signal, ...query } = opts;
    return this.call(
      (abortSignal) => queryPage(this.clients.table(table), table, { ...query, pageSize: query.pageSize ?? PAGE_SIZE }, abortSignal),
      signal,
    );
  }

  async getEntity(table: string, partitionKey: string, rowKey: string): Promise<EntityRow> {
    return this.call(async (abortSignal) =>
      toRow(
        (await this.clients
          .table(table)
          .getEntity<Record<string, unknown>>(partitionKey, rowKey, { abortSignal, disableTypeConversion: true })) as never,
      ),
    );
  }

  /** Inserts a new entity; fails if one with the same keys exists. Returns it as stored. */
  async insertEntity(table: string, row: EntityRow): Promise<EntityRow> {
    validate(row);
    await this.call((abortSignal) => this.clients.table(table).createEntity(toEntity(row), { abortSignal }));
    return this.getEntity(table, row.partitionKey, row.rowKey);
  }

  /**
   * Replaces an entity only if it still has the ETag it was read with: a
   * concurrent change makes this fail with ConflictError and writes nothing.
   */
  async updateEntity(table: string, row: EntityRow, etag: string): Promise<EntityRow> {
    validate(row);
    await this.call((abortSignal) => this.clients.table(table).updateEntity(toEntity(row), "Replace", { abortSignal, etag }));
    return this.getEntity(table, row.partitionKey, row.rowKey);
  }

  /**
   * Writes one entity in a request of its own: replaces the one with its
   * keys (or, `merge`, merges into it), or inserts it. An import sends an
   * entity alone when a batch holding it was refused, to name it — and the
   * emulator reads the keys of a lone request right where its `$batch`
   * cannot (a RowKey holding `',`).
   */
  async upsertEntity(table: string, row: EntityRow, merge = false, signal?: AbortSignal): Promise<void> {
    validate(row);
    await this.call(
      (abortSignal) => this.clients.table(table).upsertEntity(toEntity(row), merge ? "Merge" : "Replace", { abortSignal }),
      signal,
      "upsertEntity",
    );
  }

  /** Deletes entities in entity group transactions: one partition per batch, at most 100 each. */
  async deleteEntities(
    table: string,
    keys: Array<{ partitionKey: string; rowKey: string }>,
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<{ deleted: number; batches: number }> {
    const batches = batchesByPartition(keys);
    let deleted = 0;
    for (const batch of batches) {
      if (signal?.aborted) break;
      const deletes: BatchAction[] = batch.map((k) => ({ kind: "delete", partitionKey: k.partitionKey, rowKey: k.rowKey }));
      await this.call((abortSignal) => submitBatch(this.clients.table(table), table, deletes, abortSignal), signal, "batchDelete");
      deleted += batch.length;
      onProgress?.(deleted, keys.length);
    }
    return { deleted, batches: batches.length };
  }

  /**
   * Deletes the entities of one partition (at most 100) in one transaction,
   * each only if it still has the ETag given: when any changed, the service
   * refuses the whole batch (412) and nothing is deleted.
   */
  async deleteBatchIfUnchanged(
    table: string,
    targets: Array<{ partitionKey: string; rowKey: string; etag: string }>,
    signal?: AbortSignal,
  ): Promise<void> {
    const deletes: BatchAction[] = targets.map((t) => ({ kind: "delete", partitionKey: t.partitionKey, rowKey: t.rowKey, etag: t.etag }));
    await this.call((abortSignal) => submitBatch(this.clients.table(table), table, deletes, abortSignal), signal, "batchDelete");
  }

  /** Upserts `rows` in batches per partition; throws the first batch's failure (for seeding tables: an import uses writeBatches). */
  async upsertRows(
    table: string,
    rows: EntityRow[],
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<number> {
    rows.forEach(validate);
    const report = await this.writeBatches(table, batchesByPartition(rows), onProgress, signal, true);
    return report.written;
  }

  /**
   * Writes each batch (one partition, at most 100 entities) as one entity
   * group transaction: each is written whole or not at all. A batch the
   * service refuses is reported with its reason and the others are still
   * written; a cancel stops before the next batch. `stopOnFailure` throws the
   * first failure instead. `merge`: each entity's properties are merged into
   * the one with its keys (insert or merge), instead of replacing it whole.
   */
  async writeBatches(
    table: string,
    batches: EntityRow[][],
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
    stopOnFailure = false,
    merge = false,
  ): Promise<ImportReport> {
    const total = batches.reduce((n, b) => n + b.length, 0);
    const report: ImportReport = { written: 0, batchesWritten: 0, failed: [], notAttempted: 0 };
    for (const [i, batch] of batches.entries()) {
      if (signal?.aborted) {
        report.notAttempted = batches.slice(i).reduce((n, b) => n + b.length, 0);
        break;
      }
      const upserts: BatchAction[] = batch.map((row) => ({ kind: merge ? "merge" : "upsert", row }));
      try {
        await this.call((abortSignal) => submitBatch(this.clients.table(table), table, upserts, abortSignal), signal, "batchUpsert");
        report.written += batch.length;
        report.batchesWritten++;
      } catch (e) {
        if (stopOnFailure) throw e;
        const reason = signal?.aborted
          ? "cancelled while it was being sent: the service wrote it whole or not at all"
          : (e as Error).message;
        report.failed.push({ partitionKey: batch[0].partitionKey, entities: batch.length, reason });
      }
      onProgress?.(report.written + report.failed.reduce((n, f) => n + f.entities, 0), total);
    }
    return report;
  }

  /**
   * Runs a query and measures what it cost: requests, pages, continuation
   * tokens followed, entities returned and elapsed time, up to `limit` rows.
   */
  async query(table: string, filter: string, opts: { select?: string[]; limit?: number; signal?: AbortSignal } = {}): Promise<QueryResult> {
    const limit = opts.limit ?? PAGE_SIZE;
    const started = performance.now();
    const cost = { requests: 0, pages: 0, continuationTokens: 0, entities: 0, elapsedMs: 0 };
    const entities: EntityRow[] = [];
    let token: string | undefined;
    do {
      const page = await this.page(table, {
        filter,
        select: opts.select,
        continuationToken: token,
        pageSize: Math.min(PAGE_SIZE, limit - entities.length),
      });
      cost.requests++;
      cost.pages++;
      entities.push(...page.entities);
      token = page.continuationToken;
      if (token && entities.length < limit) cost.continuationTokens++;
    } while (token && entities.length < limit && !opts.signal?.aborted);
    cost.entities = entities.length;
    cost.elapsedMs = Math.round(performance.now() - started);
    return { entities, cost, continuationToken: token };
  }
}

function validate(row: EntityRow): void {
  for (const [name, v] of Object.entries(row.properties)) {
    const problem = checkValue(name, v);
    if (problem) throw toAccountError({ message: problem }, "", 0);
  }
}

/** createTable treats 409 as success; the explorer wants to say the table exists. */
function failOnConflict(res: { status: number }): void {
  if (res.status === 409) throw Object.assign(new Error("exists"), { code: "TableAlreadyExists", statusCode: 409 });
}
