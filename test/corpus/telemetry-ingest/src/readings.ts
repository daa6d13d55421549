import { TableClient, TransactionAction, odata } from "@azure/data-tables";
import { format } from "date-fns";

export interface Reading {
  deviceId: string;
  sensor: "temp" | "humidity" | "co2";
  value: number;
  seq: number;
}

const readings = TableClient.fromConnectionString(process.env.TELEMETRY ?? "", "readings");
const hourly = TableClient.fromConnectionString(process.env.TELEMETRY ?? "", "hourly");

/** All readings of the current hour go to one partition: easy to read back, hot to write. */
export async function ingest(batch: Reading[]): Promise<void> {
  const bucket = new Date().toISOString().slice(0, 13); // expect: ts/append-only-key
  for (let i = 0; i < batch.length; i += 100) {
    const chunk = batch.slice(i, i + 100);
    await readings.submitTransaction(chunk.map((r): TransactionAction => ["create", { partitionKey: bucket, rowKey: `${r.deviceId}_${r.seq}`, sensor: r.sensor, value: r.value }])); // expect: ts/unpadded-number
  }
}

export async function rollUp(deviceId: string, avg: number): Promise<void> {
  await hourly.upsertEntity({ partitionKey: format(new Date(), "yyyyMMddHH"), rowKey: deviceId, avg }, "Replace"); // expect: ts/append-only-key
}

export async function readHour(hour: string, deviceId?: string) {
  const filter = deviceId ? odata`PartitionKey eq ${hour} and RowKey ge ${deviceId + "_"} and RowKey lt ${deviceId + "`"}` : odata`PartitionKey eq ${hour}`;
  const out = [];
  for await (const r of readings.listEntities({ queryOptions: { filter } })) out.push(r); // query: row-range
  return out;
}

export async function lastDay(sensor: Reading["sensor"]) {
  const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 13);
  const filter = [odata`PartitionKey ge ${since}`, odata`sensor eq ${sensor}`].join(" and ");
  return readings.listEntities({ queryOptions: { filter } }); // query: partition-range
}

/** Seeds a demo hour with exactly one batch too many. */
export async function seedDemo(hour: string): Promise<void> {
  const actions: TransactionAction[] = [];
  for (let i = 0; i < 101; i++) {
    actions.push(["upsert", { partitionKey: hour, rowKey: String(i).padStart(4, "0"), sensor: "temp", value: 20 + (i % 5) }]);
  }
  await readings.submitTransaction(actions); // expect: ts/transaction-too-large
}
