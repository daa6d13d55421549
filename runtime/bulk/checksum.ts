/**
 * A checksum of a set of entities that does not depend on their order: the
 * sum, modulo 2^64, of the first 8 bytes of each entity's SHA-256 (over its
 * canonical line: keys first, properties sorted by name, each with its Edm
 * type). Ranges read in parallel, a resumed export and a table read back in
 * another order all give the same figure for the same entities; an entity
 * missing, repeated or changed changes it. An export hashes every entity it
 * reads, so this is on the hot path: the line is built by hand, the hash is
 * one call, and the sum is kept in two 32-bit halves.
 */
import * as crypto from "node:crypto";
import type { EntityRow } from "@protocol/entities";

const TWO_32 = 2 ** 32;

/** The canonical text of an entity: what the checksum hashes (`JSON.stringify([pk, rk, [[name, type, value]…]])`, names sorted). */
export function canonical(row: EntityRow): string {
  const names = Object.keys(row.properties);
  if (names.length > 1) names.sort();
  let line = `[${JSON.stringify(row.partitionKey)},${JSON.stringify(row.rowKey)},[`;
  for (let i = 0; i < names.length; i++) {
    const v = row.properties[names[i]];
    line += `${i ? "," : ""}[${JSON.stringify(names[i])},${JSON.stringify(v.type)},${JSON.stringify(v.value)}]`;
  }
  return `${line}]]`;
}

/** SHA-256 in one call where Node has it (20.12 and later), else through a Hash object. */
const sha256: (text: string) => Buffer =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "buffer")
    : (text) => crypto.createHash("sha256").update(text).digest();

export class Checksum {
  private hi: number;
  private lo: number;

  constructor(
    from = "0",
    public count = 0,
  ) {
    const sum = BigInt(`0x${from}`) % (1n << 64n);
    this.hi = Number(sum >> 32n);
    this.lo = Number(sum & 0xffffffffn);
  }

  add(row: EntityRow): void {
    const digest = sha256(canonical(row));
    this.addHalves(digest.readUInt32BE(0), digest.readUInt32BE(4));
    this.count++;
  }

  /** Another checksum's entities added to this one's. */
  merge(other: { checksum: string; count: number }): void {
    const sum = BigInt(`0x${other.checksum}`);
    this.addHalves(Number((sum >> 32n) & 0xffffffffn), Number(sum & 0xffffffffn));
    this.count += other.count;
  }

  get hex(): string {
    return this.hi.toString(16).padStart(8, "0") + this.lo.toString(16).padStart(8, "0");
  }

  private addHalves(hi: number, lo: number): void {
    this.lo += lo;
    let carry = 0;
    if (this.lo >= TWO_32) {
      this.lo -= TWO_32;
      carry = 1;
    }
    this.hi = (this.hi + hi + carry) % TWO_32;
  }
}
