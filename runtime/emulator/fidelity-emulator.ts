/**
 * The emulator with Azure fidelity (`tdl emulator` in the README): the embedded Azurite
 * behind the fidelity layer, one object to start and stop. Fidelity on by
 * default; `scale` shrinks the targets (0.1: a partition runs hot at 200
 * entities/s); `record` appends one JSON line per second of traffic (or,
 * with `recordFormat: "storage-table-logs"`, one StorageTableLogs row per request); `log`
 * hears Azurite's lines, `warn` the layer's internal failures (with stacks).
 */
import { EmbeddedEmulator, freePort } from "./azurite";
import { FidelityProxy, ProxyStats } from "./fidelity/proxy";
import type { ThrottleSettings } from "./fidelity/throttle";
import { RecordFormat, TrafficRecorder } from "./fidelity/recorder";
import type { EmulatorSelf } from "./fidelity/self";
import { DEV_ACCOUNT, emulatorConnectionString } from "../account/connection-string";
import { SERVICES } from "@core";
import { describeError, stackOf, UnavailableError } from "@core/errors";

/** A start that failed for want of something the machine did not give (a port, a process): its message, its stack as detail. */
function notStarted(e: unknown): never {
  throw new UnavailableError(describeError(e), stackOf(e));
}

export interface FidelityOptions {
  port?: number;
  fidelity?: boolean;
  scale?: number;
  record?: string;
  /** What the record file holds: one JSON line per second (default), or one StorageTableLogs row per request. */
  recordFormat?: RecordFormat;
  log?: (line: string) => void;
  /** The layer's own failures (internal errors with stacks, an unwritable record file); default: `log`. */
  warn?: (line: string) => void;
}

/**
 * How a stress run sets the emulator's throttling for its duration: the
 * targets at `scale` with bursts of `burstSeconds`, nothing at all
 * (`"off"`, while a probe measures the machine), or the emulator's own
 * settings again (`"default"`, after the run).
 */
export type ThrottleMode = { scale: number; burstSeconds: number } | "off" | "default";

/** The hook a stress run holds on an emulator it may rescale (the fidelity layer, when it is on). */
export interface ThrottleControl {
  /** False when the fidelity layer is off: nothing is ever throttled. */
  readonly throttles: boolean;
  setThrottle(mode: ThrottleMode): void;
}

export class FidelityEmulator implements ThrottleControl {
  private readonly initial: ThrottleSettings;

  private constructor(
    readonly azurite: EmbeddedEmulator,
    private readonly proxy: FidelityProxy,
    readonly port: number,
    readonly recorder: TrafficRecorder,
    readonly throttles: boolean,
  ) {
    this.initial = { ...proxy.throttle.settings };
  }

  /** Sets the throttling for a stress run (every bucket starts full); `"default"` restores the start options. */
  setThrottle(mode: ThrottleMode): void {
    const base = this.initial;
    if (mode === "default") this.proxy.throttle.configure(base);
    else if (mode === "off") this.proxy.throttle.configure({ ...base, enabled: false });
    else this.proxy.throttle.configure({ ...base, scale: mode.scale, burstSeconds: mode.burstSeconds, enabled: true });
  }

  /** Starts Azurite and the layer in front of it; what stops either (a port in use, Azurite failing or slow to start) is `unavailable`. */
  static async start(o: FidelityOptions = {}): Promise<FidelityEmulator> {
    const azurite = await EmbeddedEmulator.start({ log: o.log }).catch(notStarted);
    const warn = o.warn ?? o.log;
    const recorder = new TrafficRecorder(o.record, warn, o.recordFormat);
    const azure = SERVICES["azure-table"];
    const proxy = new FidelityProxy({
      upstreamPort: azurite.port,
      account: DEV_ACCOUNT,
      fidelity: o.fidelity ?? true,
      recorder,
      log: warn,
      throttle: {
        partitionTarget: azure.partitionTarget!.value,
        accountTarget: azure.accountTargetEntitiesPerSecond!,
        scale: o.scale ?? 1,
      },
    });
    try {
      const port = await proxy.listen(o.port || (await freePort()));
      return new FidelityEmulator(azurite, proxy, port, recorder, o.fidelity ?? true);
    } catch (e) {
      recorder.stop();
      await azurite.stop();
      return notStarted(e);
    }
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}/${DEV_ACCOUNT}`;
  }

  get connectionString(): string {
    return emulatorConnectionString(this.endpoint);
  }

  /** What `GET <endpoint>/$tdl-emulator` answers: fidelity on or off, whether it throttles, at which scale. */
  get self(): EmulatorSelf {
    return this.proxy.self();
  }

  /** Requests served, refused before parsing, and internal failures survived since start. */
  get stats(): ProxyStats {
    return { ...this.proxy.stats };
  }

  get pid(): number {
    return this.azurite.pid;
  }

  get running(): boolean {
    return this.azurite.running;
  }

  async stop(): Promise<void> {
    this.recorder.stop();
    await this.proxy.close();
    await this.azurite.stop();
  }
}
