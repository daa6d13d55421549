/**
 * `tdl emulator`: Azurite's table service behind the fidelity layer, for
 * any client in any language, until SIGINT or SIGTERM. The first stdout
 * line is `{"connectionString": …, "tableEndpoint": …}`. No request can end
 * it: the layer answers every one, logs its own failures on stderr, and
 * says so when Azurite behind it is gone.
 */
import { parseArgs, UsageError } from "./args";
import { FidelityEmulator } from "@runtime";

export interface EmulatorRun {
  exitCode: number;
}

export async function emulatorCommand(argv: string[], write: (s: string) => void, writeErr: (s: string) => void): Promise<EmulatorRun> {
  const { options } = parseArgs(argv, ["port", "fidelity", "scale", "record"], []);
  const port = Number(options.get("port") ?? 10002);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port takes 0 (any free port) to 65535");
  const fidelity = (options.get("fidelity") ?? "azure-table") as string;
  if (fidelity !== "azure-table" && fidelity !== "off") throw new UsageError(`--fidelity must be azure-table or off, not '${fidelity}'`);
  const scale = Number(options.get("scale") ?? 1);
  if (!(scale > 0) || !Number.isFinite(scale)) throw new UsageError("--scale takes a positive number, such as 0.1");
  const warn = (line: string) => writeErr(`tdl emulator: ${line}\n`);
  let emulator: FidelityEmulator;
  try {
    emulator = await FidelityEmulator.start({
      port,
      fidelity: fidelity === "azure-table",
      scale,
      record: options.get("record") as string | undefined,
      warn,
    });
  } catch (e) {
    writeErr(`tdl: the emulator could not start: ${(e as Error).message}\n`);
    return { exitCode: 1 };
  }
  write(
    JSON.stringify({
      connectionString: emulator.connectionString,
      tableEndpoint: emulator.endpoint,
      upstreamEndpoint: emulator.azurite.endpoint,
      pid: emulator.pid,
    }) + "\n",
  );
  writeErr(
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
  writeErr(
    `Table emulator stopped after ${s.requests} requests (${s.malformed} refused as malformed HTTP, ${s.internalErrors} internal errors survived).\n`,
  );
  return { exitCode: 0 };
}
