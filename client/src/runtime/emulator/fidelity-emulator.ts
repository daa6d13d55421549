/**
 * The emulator with Azure fidelity (`interfaces.md`): the embedded Azurite
 * behind the fidelity layer, one object to start and stop. Fidelity on by
 * default; `scale` shrinks the targets (0.1: a partition runs hot at 200
 * entities/s); `record` appends one JSON line per second of traffic; `log`
 * hears Azurite's lines, `warn` the layer's internal failures (with stacks).
 */
import { EmbeddedEmulator, freePort } from "./azurite";
import { FidelityProxy, ProxyStats } from "./fidelity/proxy";
import { TrafficRecorder } from "./fidelity/recorder";
import { DEV_ACCOUNT, emulatorConnectionString } from "../account/connection-string";
import { SERVICES } from "../../../../server/src/core";

export interface FidelityOptions {
  port?: number;
  fidelity?: boolean;
  scale?: number;
  record?: string;
  log?: (line: string) => void;
  /** The layer's own failures (internal errors with stacks, an unwritable record file); default: `log`. */
  warn?: (line: string) => void;
}

export class FidelityEmulator {
  private constructor(readonly azurite: EmbeddedEmulator, private readonly proxy: FidelityProxy, readonly port: number, readonly recorder: TrafficRecorder) {}

  static async start(o: FidelityOptions = {}): Promise<FidelityEmulator> {
    const azurite = await EmbeddedEmulator.start({ log: o.log });
    const warn = o.warn ?? o.log;
    const recorder = new TrafficRecorder(o.record, warn);
    const azure = SERVICES["azure-table"];
    const proxy = new FidelityProxy({
      upstreamPort: azurite.port, account: DEV_ACCOUNT, fidelity: o.fidelity ?? true, recorder, log: warn,
      throttle: { partitionTarget: azure.partitionTarget!.value, accountTarget: azure.accountTargetEntitiesPerSecond!, scale: o.scale ?? 1 },
    });
    try {
      const port = await proxy.listen(o.port || (await freePort()));
      return new FidelityEmulator(azurite, proxy, port, recorder);
    } catch (e) {
      recorder.stop();
      await azurite.stop();
      throw e;
    }
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}/${DEV_ACCOUNT}`;
  }

  get connectionString(): string {
    return emulatorConnectionString(this.endpoint);
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
