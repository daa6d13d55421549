/**
 * `tdl emulator`: Azurite's table service behind the fidelity layer, for
 * any client in any language, until SIGINT or SIGTERM. The first stdout
 * line is `{"connectionString": …, "tableEndpoint": …}`.
 */
import { parseArgs, UsageError } from "./args";
import { FidelityEmulator } from "../../../client/src/emulator/fidelity-emulator";

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
  if (!(scale > 0)) throw new UsageError("--scale takes a positive number, such as 0.1");
  let emulator: FidelityEmulator;
  try {
    emulator = await FidelityEmulator.start({ port, fidelity: fidelity === "azure-table", scale, record: options.get("record") as string | undefined });
  } catch (e) {
    writeErr(`tdl: the emulator could not start: ${(e as Error).message}\n`);
    return { exitCode: 1 };
  }
  write(JSON.stringify({ connectionString: emulator.connectionString, tableEndpoint: emulator.endpoint, upstreamEndpoint: emulator.azurite.endpoint, pid: emulator.pid }) + "\n");
  writeErr(`Table emulator on ${emulator.endpoint} (fidelity ${fidelity}${fidelity === "azure-table" ? `, scale ${scale}: ${2000 * scale} entities/s per partition` : ""}). Ctrl+C stops it.\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await emulator.stop();
  writeErr("Table emulator stopped.\n");
  return { exitCode: 0 };
}
