import { TableClient } from "@azure/data-tables";
import { createHash } from "node:crypto";
import { ulid } from "ulid";

const devices = TableClient.fromConnectionString(process.env.TELEMETRY ?? "", "devices");
const events = TableClient.fromConnectionString(process.env.TELEMETRY ?? "", "deviceEvents");

export async function register(deviceId: string, model: string, firmware: number): Promise<void> {
  // Spread over 16 partitions by a hash prefix: the partitioning guide's fix for hot keys.
  const shard = createHash("md5").update(deviceId).digest("hex").slice(0, 1);
  await devices.upsertEntity({ partitionKey: `${shard}_${model}`, rowKey: deviceId, firmware }, "Merge");
}

export async function logEvent(deviceId: string, kind: string): Promise<string> {
  const id = ulid(); // expect: ts/append-only-key
  await events.createEntity({ partitionKey: id, rowKey: deviceId, kind });
  return id;
}

export async function lookup(deviceId: string, model: string) {
  const shard = createHash("md5").update(deviceId).digest("hex").slice(0, 1);
  return devices.getEntity(`${shard}_${model}`, deviceId); // query: point
}

export async function firmwareAbove(version: number) {
  return devices.listEntities({ queryOptions: { filter: `firmware gt ${version}` } }); // expect: ts/table-scan // query: table-scan
}
