/**
 * How a run is scaled to the machine: against an emulator, by a factor K
 * measured at the start of the run (or given, or carried over from the
 * run it is compared with) — Azure's targets and the design's rates are
 * multiplied by K, and an emulator whose fidelity layer the run can reach
 * throttles at those targets for the run's duration. Against an account
 * nothing is scaled: the service's own targets apply.
 */
import type { TableClient } from "@azure/data-tables";
import type { ThrottleControl } from "../emulator/fidelity-emulator";
import { readEmulatorSelf } from "../emulator/fidelity/self";
import type { PhaseBound } from "./bound";
import { Calibration, calibrationFor, probeCapacity, scaleFor } from "./calibrate";
import type { EntityGenerator } from "./generator";

/** Bursts the scaled buckets allow, in seconds of their rate: short, so a short run shows a partition that is only a little over. */
export const RUN_BURST_SECONDS = 0.25;

export interface ScalingOptions {
  /** The emulator's fidelity layer, when the run may rescale its throttling. */
  throttle?: ThrottleControl;
  /** A calibration to reuse (the second design of a comparison is judged at the first one's scale). */
  calibration?: Calibration;
  /** A scale to use instead of measuring one (`tdl stress --emulator-scale`). */
  emulatorScale?: number;
  /** The probe's measured length (default 1 s). */
  calibrateMs?: number;
}

/**
 * Whether the emulator at `endpoint` throttles, when the run did not start
 * it (`tdl stress --connection-string-env` against `tdl emulator`): it says
 * so itself (`GET …/$tdl-emulator`, self.ts). One that throttles is judged
 * at its own scale — the run cannot rescale an emulator it does not hold,
 * so its `setThrottle` does nothing — and a different `--emulator-scale`
 * is said to give way. Plain Azurite answers nothing: it does not throttle.
 */
export async function emulatorThrottle(
  o: ScalingOptions,
  endpoint: string,
): Promise<{ throttle?: ThrottleControl; emulatorScale?: number; note?: string }> {
  if (o.throttle) return { throttle: o.throttle, emulatorScale: o.emulatorScale };
  const self = await readEmulatorSelf(endpoint);
  if (!self?.throttles) {
    const off = self ? "The emulator's fidelity layer is off (tdl emulator --fidelity off): nothing is throttled." : undefined;
    return { emulatorScale: o.emulatorScale, note: off };
  }
  const given = o.emulatorScale !== undefined && o.emulatorScale !== self.scale;
  return {
    throttle: { throttles: true, setThrottle: () => undefined },
    emulatorScale: self.scale,
    note: `The emulator throttles at Azure's targets × ${self.scale} (tdl emulator --scale ${self.scale}); the run is judged at that scale${given ? `, not at --emulator-scale ${o.emulatorScale}` : ""}.`,
  };
}

/** The run's calibration: reused, given, or measured now with a probe (throttling off meanwhile). */
export async function calibrate(
  o: ScalingOptions,
  azure: Calibration["azure"],
  probe: { client: TableClient; gen: EntityGenerator; concurrency: number; bound: PhaseBound },
): Promise<Calibration> {
  const throttled = o.throttle?.throttles ?? false;
  if (o.calibration) return calibrationFor(o.calibration.capacityEntitiesPerSecond, o.calibration.scale, azure, throttled);
  if (o.emulatorScale !== undefined) return calibrationFor(undefined, o.emulatorScale, azure, throttled);
  o.throttle?.setThrottle("off");
  const capacity = await probeCapacity(probe.client, probe.gen, { ...probe, ms: o.calibrateMs ?? 1000 });
  return calibrationFor(capacity, scaleFor(capacity, azure.accountTargetEntitiesPerSecond), azure, throttled);
}
