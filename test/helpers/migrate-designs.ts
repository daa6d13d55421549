/**
 * A hot time-series design and its fix, the migration's running example:
 * hour partitions (every device writes into the current hour) re-keyed to a
 * partition per device with an index row per metric, and a second table the
 * fix adds (readings by metric). Shared by the unit, CLI and integration
 * tests of `tdl migrate`.
 */
const PROPS = `  DeviceId: string(12..12) charset "0-9a-f" distinct 5K
  At:       datetime increasing
  Metric:   enum(temperature, humidity, pressure)
  Value:    double`;

export const OLD_DESIGN = `table Readings {
${PROPS}

  partitionKey = date(At, "yyyyMMddHH")
  rowKey       = DeviceId + "_" + date(At, "mmssfff")

  rows 100K
  entitySize 256B
  insert Reading 50/s
}
`;

export const NEW_DESIGN = `table Readings {
${PROPS}

  partitionKey = DeviceId
  rowKey       = reverse(At) + "_" + Metric
  index ByMetric rowKey = Metric + "_" + reverse(At)

  rows 100K
  entitySize 256B
  insert Reading 50/s
  query Latest 10/s where DeviceId = ? and At >= ? returns 60
}

table ReadingsByMetric {
${PROPS}

  partitionKey = Metric + "_" + date(At, "yyyyMMdd")
  rowKey       = DeviceId + "_" + reverse(At)

  rows 100K
  entitySize 256B
  insert Reading 50/s
}
`;

/** The fix with a key component the old design cannot give: Site is neither declared nor in a key. */
export const NO_SOURCE_DESIGN = NEW_DESIGN.replace("partitionKey = DeviceId\n", 'partitionKey = Site + "_" + DeviceId\n').replace(
  "  Value:    double\n\n  partitionKey = Site",
  "  Value:    double\n  Site:     string(1..20)\n\n  partitionKey = Site",
);
