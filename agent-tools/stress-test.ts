/**
 * `stress_test`: a partition stress test of a design's table (runtime/stress/,
 * as `tdl stress`), bounded in time, on the embedded emulator: another
 * connection only when `tdl mcp --allow-account-stress` allows it, since a
 * stress test loads an account at its peak and costs money. Returns the
 * verdict and the figures a user checks; the table is deleted after.
 */
import { analyzeTdl } from "@core";
import { RefusedError, UsageError } from "@core/errors";
import { buildStressJob, checkDesign, runStress } from "@runtime";
import type { StressMode } from "@protocol";
import { CONNECTION_PROPERTY, onAccount } from "./account-input";
import { ANALYSIS_PROPERTIES, analysisOf, DESIGN_PROPERTIES, designOf } from "./inputs";
import { defineTool } from "./tool";

/** Longest run an agent may ask for, in seconds. */
const MAX_SECONDS = 60;

interface Input {
  connection?: string;
  design?: string;
  path?: string;
  table?: string;
  mode?: StressMode;
  seconds?: number;
  concurrency?: number;
  service?: string;
}

export const stressTest = defineTool({
  name: "stress_test",
  title: "Stress-test a design's partitions",
  description: `Run a partition stress test of a design's table for a few seconds (at most ${MAX_SECONDS}) and return the verdict: the hottest partition's rate against its target, throttling, per-operation calls and latency. Runs on the embedded emulator (connection 'emulator', the default), scaled to this machine; any other connection only when the server was started with --allow-account-stress. The stress table is deleted after.`,
  inputSchema: {
    type: "object",
    properties: {
      connection: CONNECTION_PROPERTY,
      ...DESIGN_PROPERTIES,
      table: { type: "string", maxLength: 200, description: "The design's table (default: its only table)." },
      mode: {
        type: "string",
        enum: ["design", "single-partition", "spread"],
        description: "design (the declared load, default), single-partition or spread.",
      },
      seconds: { type: "integer", minimum: 1, maximum: MAX_SECONDS, description: "How long the load runs (default 5)." },
      concurrency: { type: "integer", minimum: 1, maximum: 64, description: "Workers sending at once (default 8)." },
      service: ANALYSIS_PROPERTIES.service,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      verdict: { type: "string" },
      hot: { type: "boolean" },
      hottestPartitionEntitiesPerSecond: { type: "number" },
      partitionTargetEntitiesPerSecond: { type: "number" },
      throttled: { type: "object", properties: { partition: { type: "number" }, account: { type: "number" }, share: { type: "number" } } },
      operations: { type: "object", description: "Per operation type: calls, entities/s, p50/p99 latency, errors." },
      partitions: { type: "integer" },
      note: { type: "string" },
      stopped: { type: "string" },
    },
    required: [
      "verdict",
      "hot",
      "hottestPartitionEntitiesPerSecond",
      "partitionTargetEntitiesPerSecond",
      "throttled",
      "operations",
      "partitions",
      "note",
    ],
  },
  touchesAccount: true,
  writes: true,
  async run(input: Input, { workspace, connections, allowAccountStress, signal }) {
    const { text, file } = designOf(input, workspace);
    const analysis = analysisOf(input);
    const names = analyzeTdl(text, analysis).tables.map((t) => t.table.name.text);
    const table = input.table ?? (names.length === 1 ? names[0] : undefined);
    if (table === undefined) throw new UsageError(`name the table to stress (tables: ${names.join(", ") || "none"})`);
    const mode = input.mode ?? "design";
    // Checked before anything starts: a bad design or table costs no emulator.
    checkDesign({ design: { text, file, table }, analysis, mode });
    const open = await connections.open(input.connection ?? "emulator");
    if (!open.embedded && !allowAccountStress)
      throw new RefusedError(
        `stress_test runs on the embedded emulator ('emulator'): ${open.name} is not it, and the server was not started with --allow-account-stress`,
      );
    const r = await onAccount(`the stress test on ${open.name}`, () =>
      runStress(
        buildStressJob({
          target: {
            connection: open.connection,
            secret: open.secret,
            emulator: open.embedded ? true : undefined,
            confirmedRealAccount: allowAccountStress,
            throttle: open.throttle,
          },
          plan: {
            design: { text, file, table },
            analysis,
            mode,
            durationMs: (input.seconds ?? 5) * 1000,
            concurrency: input.concurrency ?? 8,
          },
          limits: { maxDurationMs: MAX_SECONDS * 1000 },
          hooks: { signal },
        }),
      ),
    );
    const operations = Object.fromEntries(
      Object.entries(r.operations)
        .filter(([, o]) => o.count || Object.keys(o.errors).length)
        .map(([op, o]) => [
          op,
          { calls: o.count, entitiesPerSecond: o.entitiesPerSecond, p50Ms: o.latencyMs.p50, p99Ms: o.latencyMs.p99, errors: o.errors },
        ]),
    );
    return {
      verdict: r.verdict.headline,
      hot: r.verdict.exceedsTarget,
      hottestPartitionEntitiesPerSecond: r.verdict.hottestPartitionEntitiesPerSecond,
      partitionTargetEntitiesPerSecond: r.verdict.partitionTargetEntitiesPerSecond,
      throttled: r.verdict.throttled,
      operations,
      partitions: r.partitionCount,
      note: r.verdict.note,
      ...(r.stopped ? { stopped: r.stopped } : {}),
    };
  },
});
