/**
 * A checksum of a set of entities that does not depend on their order: the
 * sum, modulo 2^64, of the first 8 bytes of each entity's SHA-256 (over its
 * canonical line: keys first, properties sorted by name, each with its Edm
 * type). Ranges read in parallel, a resumed export and a table read back in
 * another order all give the same figure for the same entities; an entity
 * missing, repeated or changed changes it.
 */
import { createHash } from "node:crypto";
import type { EntityRow } from "@protocol/entities";

const MOD = 1n << 64n;

/** The canonical text of an entity: what the checksum hashes. */
export function canonical(row: EntityRow): string {
  const props = Object.keys(row.properties)
    .sort()
    .map((k) => [k, row.properties[k].type, row.properties[k].value]);
  return JSON.stringify([row.partitionKey, row.rowKey, props]);
}

export class Checksum {
  private sum: bigint;

  constructor(
    from = "0",
    public count = 0,
  ) {
    this.sum = BigInt(`0x${from}`);
  }

  add(row: EntityRow): void {
    const digest = createHash("sha256").update(canonical(row)).digest();
    this.sum = (this.sum + digest.readBigUInt64BE(0)) % MOD;
    this.count++;
  }

  /** Another checksum's entities added to this one's. */
  merge(other: { checksum: string; count: number }): void {
    this.sum = (this.sum + BigInt(`0x${other.checksum}`)) % MOD;
    this.count += other.count;
  }

  get hex(): string {
    return this.sum.toString(16).padStart(16, "0");
  }
}
