/**
 * Traffic per second and per partition key, as the emulator's fidelity layer
 * records it and the key-space heatmap draws it.
 */

export interface PartitionTraffic {
  reads: number;
  writes: number;
  throttled: number;
}

/** One second of traffic: `t` is the second's start (ms since the epoch); keys are `table/partitionKey`. */
export interface TrafficSecond {
  t: number;
  partitions: Record<string, PartitionTraffic>;
}
