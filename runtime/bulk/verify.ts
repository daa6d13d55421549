/**
 * `tdl import --verify`: the table read back range by range, each range's
 * entities counted and checksummed as the export did, and compared with the
 * manifest. Equal figures mean the same entities, whatever the order.
 */
import type { AccountSession } from "../account/session";
import { Checksum } from "./checksum";
import { finishedManifest } from "./import";
import { SERVICES } from "@core";
import { jobPaths } from "./pace";
import { eachPage } from "./requests";
import { rangeFilter } from "./ranges";

export interface RangeCheck {
  file: string;
  expected: { count: number; checksum: string };
  actual: { count: number; checksum: string };
}

export interface Verification {
  ranges: RangeCheck[];
  /** The ranges whose count or checksum differ. */
  differ: RangeCheck[];
  count: number;
  checksum: string;
}

export async function verifyTable(o: { session: AccountSession; table: string; dir: string; signal?: AbortSignal }): Promise<Verification> {
  const manifest = finishedManifest(o.dir);
  const { path: net } = jobPaths(SERVICES["azure-table"], { signal: o.signal });
  const total = new Checksum();
  const ranges: RangeCheck[] = [];
  for (const r of manifest.ranges) {
    const sum = new Checksum();
    await eachPage(o.session, o.table, net, { filter: rangeFilter(r) }, (entities) => {
      for (const e of entities) sum.add(e);
    });
    total.merge({ count: sum.count, checksum: sum.hex });
    ranges.push({ file: r.file, expected: { count: r.count, checksum: r.checksum }, actual: { count: sum.count, checksum: sum.hex } });
  }
  const differ = ranges.filter((r) => r.expected.count !== r.actual.count || r.expected.checksum !== r.actual.checksum);
  return { ranges, differ, count: total.count, checksum: total.hex };
}
