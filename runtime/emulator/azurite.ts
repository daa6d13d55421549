/**
 * The embedded emulator: Azurite's table service (npm `azurite`), spawned
 * directly so its PID is held, in memory, on a loopback port, telemetry off;
 * stopped by PID. Free of `vscode`: the extension, the CLI and the tests
 * start it the same way.
 */
import { ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { emulatorConnectionString, DEV_ACCOUNT } from "../account/connection-string";

export interface EmulatorOptions {
  /** 0 or undefined: a free port. */
  port?: number;
  /** Lines Azurite prints (access log off). */
  log?: (line: string) => void;
  startTimeoutMs?: number;
  /** The table service's entry file to run; default: {@link azuriteEntry}. */
  entry?: string;
}

/** The bundle the build writes beside dist/extension.js and dist/cli.js (esbuild.mjs). */
export const AZURITE_BUNDLE = "azurite-table.js";

/**
 * The file that runs Azurite's table service: the single-file bundle beside
 * the running bundle (what the VSIX ships: it has no node_modules/), else,
 * when this module runs from source (tests through tsx), the azurite package.
 */
export function azuriteEntry(): string {
  const bundled = path.join(__dirname, AZURITE_BUNDLE);
  if (existsSync(bundled)) return bundled;
  try {
    return path.join(path.dirname(require.resolve("azurite/package.json")), "dist", "src", "table", "main.js");
  } catch {
    throw new Error(
      `the embedded emulator is missing: neither ${bundled} nor the azurite package was found (build with \`node esbuild.mjs\`)`,
    );
  }
}

/**
 * Runs Azurite's entry in this same process, exiting when the process that
 * started it is gone: an emulator never outlives the VS Code or test run
 * that started it, even when that one is killed.
 */
const WATCHDOG =
  "const p=process.ppid;setInterval(()=>{try{process.kill(p,0)}catch{process.exit(0)}},500).unref();require(process.argv[1]);";

export class EmbeddedEmulator {
  private exit: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exit = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  /** Settles when Azurite has exited, stopped or not (the fidelity layer then answers 500 InternalError). */
  get exited(): Promise<void> {
    return this.exit;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}/${DEV_ACCOUNT}`;
  }

  get connectionString(): string {
    return emulatorConnectionString(this.endpoint);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  static async start(options: EmulatorOptions = {}): Promise<EmbeddedEmulator> {
    const port = options.port || (await freePort());
    const main = options.entry ?? azuriteEntry();
    const child = spawn(
      process.execPath,
      [
        "-e",
        WATCHDOG,
        main,
        "--tableHost",
        "127.0.0.1",
        "--tablePort",
        String(port),
        "--inMemoryPersistence",
        "--disableTelemetry",
        "--skipApiVersionCheck",
        "--silent",
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ELECTRON_RUN_AS_NODE: "1", AZURITE_DB: "" } },
    );
    const emulator = new EmbeddedEmulator(child, port);
    const output: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`Azurite did not start within ${(options.startTimeoutMs ?? 20000) / 1000} s`)),
        options.startTimeoutMs ?? 20000,
      );
      const onLine = (chunk: Buffer) => {
        for (const line of chunk.toString().split("\n").filter(Boolean)) {
          output.push(line);
          if (output.length > 50) output.shift();
          try {
            options.log?.(line);
          } catch {
            // A logger that throws must not end the process from a stream event.
          }
          if (line.includes("successfully started")) {
            clearTimeout(timer);
            resolve();
          }
        }
      };
      const fail = (e: Error) => {
        clearTimeout(timer);
        child.kill();
        reject(new Error(`${e.message}${output.length ? `: ${output.slice(-3).join(" / ")}` : ""}`));
      };
      child.stdout!.on("data", onLine);
      child.stderr!.on("data", onLine);
      child.once("exit", (code) => fail(new Error(`Azurite exited with code ${code}`)));
      child.once("error", fail);
    });
    child.removeAllListeners("exit");
    child.removeAllListeners("error");
    // Later errors (a failed kill) are not the caller's to crash on: the exit promise tells what matters.
    child.on("error", () => undefined);
    emulator.exit = new Promise((resolve) => child.once("exit", () => resolve()));
    return emulator;
  }

  /** Stops Azurite by its PID and waits until it has exited (and its port is free). */
  async stop(): Promise<void> {
    if (!this.running) return;
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    this.child.kill("SIGTERM");
    await this.exit;
    clearTimeout(timer);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
