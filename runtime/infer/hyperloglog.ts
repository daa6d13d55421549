/**
 * A HyperLogLog sketch (Flajolet, Fusy, Gandouet, Meunier 2007) with 4,096
 * registers (≈ 1.6 % standard error) and linear counting for small counts.
 * Written here rather than taken from `bloom-filters`, whose sketch hashes
 * with a pure-JavaScript 64-bit xxHash at ≈ 0.7 ms a value (300,000 values:
 * minutes); MurmurHash3's 32-bit mix costs well under a microsecond. Two
 * seeds give the register index and the rank from independent bits, so a
 * count stays sound up to billions of values.
 */

const P = 12;
const M = 1 << P;
const ALPHA = 0.7213 / (1 + 1.079 / M);

export class HyperLogLog {
  private readonly registers = new Uint8Array(M);

  add(value: string): void {
    const index = murmur3(value, 0x9747b28c) >>> (32 - P);
    const rank = Math.clz32(murmur3(value, 0x5bd1e995)) + 1;
    if (rank > this.registers[index]) this.registers[index] = rank;
  }

  /** The estimated number of different values added. */
  count(): number {
    let sum = 0;
    let zeros = 0;
    for (const r of this.registers) {
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const raw = (ALPHA * M * M) / sum;
    // Small counts: linear counting over the empty registers is the better estimate.
    return raw <= 2.5 * M && zeros ? M * Math.log(M / zeros) : raw;
  }
}

/** MurmurHash3's 32-bit mixing, one UTF-16 code unit per block, and its finaliser: a well-spread 32-bit hash of a string. */
function murmur3(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    let k = text.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= text.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
