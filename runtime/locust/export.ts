/**
 * The folder `tdl stress --export locust DIR` writes (and `--engine locust`
 * runs from a temporary copy): Locust's entry point and runtime, the
 * design's workload and key builders, Locust's settings, the Azure Load
 * Testing test definition, `run.json` for `--ingest`, a README — and, only
 * when tdl holds the account key, one table SAS per engine in the folder named secrets
 * for the Key Vault (the key itself is never written).
 */
import { analyzeTdl, type AnalysisOptions, LineIndex, type TableModel } from "@core";
import { generateKeyBuilders } from "@codegen";
import { InputError } from "@core/errors";
import { checkDesign } from "../stress/engine";
import { toolVersion } from "../stress/marker";
import { locustConf, loadTestYaml, secretNames, type AzureAuth } from "./azure";
import { metaText, META_FILE, type LocustPlan } from "./plan";
import { locustfileText, runtimeText } from "./python/index";
import { exportReadme } from "./readme";
import { workloadModule } from "./workload";

export interface ExportedFile {
  /** Relative to the folder, with `/`. */
  name: string;
  text: string;
  /** A credential: written readable by its owner alone (0600). */
  secret?: boolean;
}

/** The design's table and its Python key module, or an InputError naming the design's errors (the module needs a clean table). */
export function designForLocust(
  design: { text: string; file: string; table: string },
  analysis?: AnalysisOptions,
): { tm: TableModel; keys: ExportedFile } {
  const result = analyzeTdl(design.text, analysis);
  const tm = result.tables.find((t) => t.table.name.text === design.table);
  if (!tm) checkDesign({ design, mode: "spread", analysis });
  const generated = generateKeyBuilders(result, { lang: "python", tables: [design.table], source: design.file.split(/[\\/]/).pop() });
  const module = generated.modules[0];
  if (!module) {
    const lines = new LineIndex(design.text);
    const why = generated.problems.map((p) => `${design.file}:${lines.position(p.start).line + 1}: ${p.message}`).join("; ");
    throw new InputError(`table '${design.table}' cannot be run on Locust until its design has no error: ${why}`);
  }
  return { tm: tm!, keys: { name: module.fileName, text: module.text } };
}

/** Every file of the folder. `sas` holds one token per engine when tdl minted them. */
export function locustFiles(
  design: { tm: TableModel; keys: ExportedFile },
  plan: LocustPlan,
  azure: AzureAuth,
  sas?: readonly string[],
): ExportedFile[] {
  const workload = workloadModule(design.tm, plan.work, {
    design: plan.design.file.split(/[\\/]/).pop() ?? plan.design.file,
    designTable: plan.design.table,
    table: plan.table,
    endpoint: plan.endpoint,
    ...(plan.account ? { account: plan.account } : {}),
    mode: plan.mode,
    durationSeconds: Math.round(plan.durationMs / 1000),
    rate: plan.rate,
    preload: plan.preload,
  });
  const python = ["tdl_locust.py", "tdl_workload.py", design.keys.name];
  const files: ExportedFile[] = [
    { name: "locustfile.py", text: locustfileText() },
    { name: "tdl_locust.py", text: runtimeText(toolVersion()) },
    { name: "tdl_workload.py", text: workload },
    design.keys,
    { name: "tdl-locust.conf", text: locustConf(plan) },
    { name: "loadtest.yaml", text: loadTestYaml(plan, azure, python) },
    { name: META_FILE, text: metaText(plan) },
    { name: "README.md", text: exportReadme(plan, azure, design.keys.name) },
    { name: ".gitignore", text: "secrets/\ntdl-records/\n__pycache__/\n" },
  ];
  if (sas) {
    const names = secretNames({ ...azure, kind: "sas", engines: sas.length });
    sas.forEach((token, i) => files.push({ name: `secrets/${names[i]!.env}.txt`, text: `${token}\n`, secret: true }));
  }
  return files;
}
