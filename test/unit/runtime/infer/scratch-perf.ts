import { readFileSync } from "node:fs";
import { generatedRows, modelOf } from "../../../helpers/generated-tables";
import { inferDesign } from "../../../../client/src/runtime/infer/infer";
for (const [f, t, n] of [["examples/marathon.tdl", "Registrations", 5000], ["examples/telemetry.tdl", "TelemetryByHour", 10000], ["examples/telemetry.tdl", "Telemetry", 10000], ["examples/student-cards/composite.tdl", "PurchasesComposite", 10000], ["examples/ledger.tdl", "Ledger", 10000]] as const) {
  const rows = generatedRows(modelOf(readFileSync(f, "utf8"), t), n);
  const t0 = performance.now();
  const r = inferDesign(rows, { table: t });
  console.log(t, rows.length, (performance.now() - t0).toFixed(0), "ms", JSON.stringify(r.check));
}
