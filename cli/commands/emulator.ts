/**
 * `tdl emulator`: Azurite's table service behind the fidelity layer, for
 * any client in any language, until SIGINT or SIGTERM. The first stdout
 * line is `{"connectionString": …, "tableEndpoint": …}`. No request can end
 * it: the layer answers every one, logs its own failures on stderr, and
 * says so when Azurite behind it is gone. A --record file that cannot be
 * written is refused before anything starts.
 */
import { FidelityEmulator } from "@runtime";
import { command } from "../command";
import { choice, integer, outputFile, positive } from "../options";
import { EXIT, inContext } from "../failure";

export const emulator = command({
  name: "emulator",
  summary: "Run Azurite's table service in memory on 127.0.0.1 behind a layer that rejects what Azure rejects and throttles hot partitions",
  description:
    'The first stdout line is {"connectionString": …, "tableEndpoint": …, "fidelity": …, "scale": …}. Partitions are throttled at Azure\'s targets × --scale. GET <tableEndpoint>/$tdl-emulator answers whether fidelity is on and at which scale (every answer carries it in the x-tdl-emulator header): tdl stress reads it. Runs until SIGINT or SIGTERM.',
  exits: "0 stopped cleanly; 1 could not start; 2 bad usage or a --record file that cannot be written",
  options: {
    port: integer("10002", "the port on 127.0.0.1; 0 takes any free port", {
      min: 0,
      max: 65535,
      invalid: () => "--port takes 0 (any free port) to 65535",
    }).default(10002),
    fidelity: choice(["azure-table", "off"], "azure-table rejects and throttles as Azure does; off passes everything to Azurite").default(
      "azure-table",
    ),
    scale: positive("K", "multiplies Azure's throughput targets (0.1: a partition runs hot at 200 entities/s)", {
      invalid: () => "--scale takes a positive number, such as 0.1",
    }).default(1),
    record: outputFile("FILE", "append one JSON line per second of traffic (per partition: reads, writes, throttled)"),
    "record-format": choice(
      ["traffic", "storage-table-logs"],
      "what --record writes: traffic (one JSON line per second) or storage-table-logs (one StorageTableLogs row per request, for tdl heatmap --logs)",
    ).default("traffic"),
  },
  async run({ options }, io) {
    const { port, fidelity, scale } = options;
    const warn = (line: string) => io.err(`tdl emulator: ${line}\n`);
    const emulator = await FidelityEmulator.start({
      port,
      fidelity: fidelity === "azure-table",
      scale,
      record: options.record,
      recordFormat: options["record-format"],
      warn,
    }).catch((e: unknown) => {
      throw inContext("the emulator could not start", e);
    });
    // Long-running: it writes as it goes instead of returning its output at the end.
    io.out(
      JSON.stringify({
        connectionString: emulator.connectionString,
        tableEndpoint: emulator.endpoint,
        upstreamEndpoint: emulator.azurite.endpoint,
        pid: emulator.pid,
        // What GET <tableEndpoint>/$tdl-emulator answers any client, tdl stress among them.
        fidelity: emulator.self.fidelity,
        scale: emulator.self.scale,
      }) + "\n",
    );
    io.err(
      `Table emulator on ${emulator.endpoint} (fidelity ${fidelity}${fidelity === "azure-table" ? `, scale ${scale}: ${2000 * scale} entities/s per partition` : ""}). Ctrl+C stops it.\n`,
    );
    let stopping = false;
    void emulator.azurite.exited.then(() => {
      if (!stopping)
        warn(`Azurite (pid ${emulator.pid}) has exited; every request is answered 500 InternalError until the emulator is restarted.`);
    });
    // The last line of defence of a long-running server: a failure no guard caught is reported, and serving goes on.
    const uncaught = (e: unknown) => warn(`internal error (the emulator goes on): ${(e as Error)?.stack ?? e}`);
    process.on("uncaughtException", uncaught);
    try {
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
    } finally {
      stopping = true;
      await emulator.stop();
      process.off("uncaughtException", uncaught);
    }
    const s = emulator.stats;
    io.err(
      `Table emulator stopped after ${s.requests} requests (${s.malformed} refused as malformed HTTP, ${s.internalErrors} internal errors survived).\n`,
    );
    return { stdout: "", stderr: "", exitCode: EXIT.clean };
  },
});
