/**
 * An emulator that knows itself: the fidelity layer answers
 * `GET <endpoint>/$tdl-emulator` (the endpoint is `http://127.0.0.1:PORT/devstoreaccount1`)
 * with whether it rejects and throttles as Azure does and at which scale,
 * so a client that did not start it — `tdl stress --connection-string-env`
 * against a `tdl emulator` — can say so, and judge its run at that scale.
 * Every answer of the layer also carries the `x-tdl-emulator` header with
 * the same facts in one line. Plain Azurite and the real service answer
 * neither: for them the reader returns undefined.
 */
import * as http from "node:http";
import type { ThrottleSettings } from "./throttle";

/** The path under the account that the layer answers itself. */
export const SELF_PATH = "$tdl-emulator";

/** The header every answer of the layer carries: `fidelity=azure-table; scale=0.1` (or `fidelity=off`). */
export const SELF_HEADER = "x-tdl-emulator";

/** What the emulator says of itself. */
export interface EmulatorSelf {
  readonly emulator: "tdl";
  /** `azure-table`: it rejects and throttles as Azure Table Storage does; `off`: everything passes to Azurite. */
  readonly fidelity: "azure-table" | "off";
  /** Whether hot partitions are throttled right now (a stress run of its own may switch it off while it calibrates). */
  readonly throttles: boolean;
  /** The factor on Azure's targets (`tdl emulator --scale K`). */
  readonly scale: number;
  /** The targets in force: Azure's × scale. */
  readonly partitionTargetEntitiesPerSecond: number;
  readonly accountTargetEntitiesPerSecond: number;
}

/** The description of a layer with `fidelity` on or off and these throttle settings. */
export function describeSelf(fidelity: boolean, s: Readonly<ThrottleSettings>): EmulatorSelf {
  return {
    emulator: "tdl",
    fidelity: fidelity ? "azure-table" : "off",
    throttles: fidelity && s.enabled !== false,
    scale: s.scale,
    // Rounded as figures are shown: 2,000 × 0.005 is 10, not 10.000000000000002.
    partitionTargetEntitiesPerSecond: Number((s.partitionTarget * s.scale).toPrecision(12)),
    accountTargetEntitiesPerSecond: Number((s.accountTarget * s.scale).toPrecision(12)),
  };
}

/** The header's one line. */
export function selfHeader(self: EmulatorSelf): string {
  return self.fidelity === "off" ? "fidelity=off" : `fidelity=${self.fidelity}; scale=${self.scale}; throttles=${self.throttles}`;
}

/** Whether `url` (a request's path and query) asks for the description, under `account`. */
export function asksForSelf(url: string, account: string): boolean {
  return url.split("?")[0] === `/${account}/${SELF_PATH}`;
}

/**
 * What the emulator at `endpoint` says of itself; undefined when nothing
 * there answers the question (plain Azurite, a real account, nothing at
 * all) within `timeoutMs`. Only plain HTTP is asked: the layer serves
 * nothing else, and a real account is never sent this request.
 */
export function readEmulatorSelf(endpoint: string, timeoutMs = 2000): Promise<EmulatorSelf | undefined> {
  let url: URL;
  try {
    url = new URL(`${endpoint.replace(/\/+$/, "")}/${SELF_PATH}`);
  } catch {
    return Promise.resolve(undefined);
  }
  if (url.protocol !== "http:") return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        // A description is a few hundred bytes: anything longer is not one.
        if (size > 4096) req.destroy();
        else chunks.push(c);
      });
      res.on("end", () => resolve(res.statusCode === 200 ? parseSelf(Buffer.concat(chunks).toString("utf8")) : undefined));
      res.on("error", () => resolve(undefined));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
  });
}

function parseSelf(text: string): EmulatorSelf | undefined {
  try {
    const j = JSON.parse(text) as Partial<EmulatorSelf>;
    if (j.emulator !== "tdl" || (j.fidelity !== "azure-table" && j.fidelity !== "off")) return undefined;
    if (typeof j.scale !== "number" || !(j.scale > 0) || typeof j.throttles !== "boolean") return undefined;
    return j as EmulatorSelf;
  } catch {
    return undefined;
  }
}
