/**
 * One registry of settings (protocol/settings.ts): package.json's
 * configuration is generated from it (`npm run docs:settings`), every
 * setting is read through its typed getter, and an unusable value falls back
 * to the default with a sentence that names the setting.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import {
  analysisSettings,
  checkSetting,
  configurationManifest,
  sectionValue,
  SETTINGS,
  settingId,
  readmeSettingsSentence,
  withConfigurationManifest,
  withReadmeSettings,
  type SettingName,
} from "@protocol/settings";
import { SERVICE_NAMES } from "@core";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { contributes: { configuration: unknown } };

test("package.json's configuration is the registry's (npm run docs:settings)", () => {
  assert.deepEqual(pkg.contributes.configuration, configurationManifest(), "run npm run docs:settings");
  assert.deepEqual(withConfigurationManifest(pkg), pkg);
});

test("the README lists every setting as the registry has it (npm run docs:settings)", () => {
  const readme = readFileSync("README.md", "utf8");
  assert.equal(withReadmeSettings(readme), readme, "run npm run docs:settings");
  for (const name of Object.keys(SETTINGS)) assert.ok(readmeSettingsSentence().includes(`\`${name}\` (`), name);
});

test("the settings the spec names keep their ids and defaults", () => {
  const props = configurationManifest().properties as Record<string, { default: unknown; type: string }>;
  assert.deepEqual(
    Object.fromEntries(
      [
        "tableDesign.service",
        "tableDesign.partitionTargetEntitiesPerSecond",
        "tableDesign.emulator.port",
        "tableDesign.stress.maxDurationSeconds",
        "tableDesign.typescript.enabled",
      ].map((id) => [id, props[id]?.default]),
    ),
    {
      "tableDesign.service": "azure-table",
      "tableDesign.partitionTargetEntitiesPerSecond": 2000,
      "tableDesign.emulator.port": 0,
      "tableDesign.stress.maxDurationSeconds": 120,
      "tableDesign.typescript.enabled": true,
    },
  );
  assert.deepEqual((props["tableDesign.service"] as unknown as { enum: string[] }).enum, SERVICE_NAMES);
});

test("a getter gives the value, or the default when unset", () => {
  assert.deepEqual(checkSetting("stress.engine", "locust"), { value: "locust" });
  assert.deepEqual(checkSetting("stress.engine", undefined), { value: "builtin" });
  assert.deepEqual(checkSetting("typescript.enabled", null), { value: true });
  assert.deepEqual(checkSetting("emulator.port", 10002), { value: 10002 });
  assert.deepEqual(checkSetting("rules", { "key/unpadded-number": "off" }), { value: { "key/unpadded-number": "off" } });
});

test("an unusable value falls back to the default, and the sentence names the setting", () => {
  assert.deepEqual(checkSetting("workspaceDiagnostics", "all"), {
    value: "designs",
    problem: 'tableDesign.workspaceDiagnostics must be "designs" or "off"',
  });
  assert.deepEqual(checkSetting("stress.engine", 3), {
    value: "builtin",
    problem: 'tableDesign.stress.engine must be "builtin", "locust" or "ask"',
  });
  assert.deepEqual(checkSetting("emulator.fidelity", "yes"), {
    value: true,
    problem: "tableDesign.emulator.fidelity must be true or false",
  });
  assert.deepEqual(checkSetting("emulator.port", "10002"), { value: 0, problem: "tableDesign.emulator.port must be a number" });
  assert.deepEqual(checkSetting("emulator.scale", 0), { value: 1, problem: "tableDesign.emulator.scale must be a number above 0" });
  assert.deepEqual(checkSetting("rules", ["off"]), {
    value: {},
    problem: 'tableDesign.rules must map rule codes to "off", "hint", "info", "warning" or "error"',
  });
});

test("a number is kept within its bounds, and a whole one rounded down", () => {
  assert.equal(checkSetting("stress.locustWorkers", 100).value, 64);
  assert.equal(checkSetting("stress.locustWorkers", 0).value, 1);
  assert.equal(checkSetting("stress.locustWorkers", 3.7).value, 3);
  assert.equal(checkSetting("stress.maxDurationSeconds", -5).value, 1);
  assert.equal(checkSetting("emulator.scale", 0.1).value, 0.1);
});

test("the server's section is read nested or with dotted keys", () => {
  assert.equal(sectionValue({ stress: { engine: "ask" } }, "stress.engine"), "ask");
  assert.equal(sectionValue({ "stress.engine": "ask" }, "stress.engine"), "ask");
  assert.equal(sectionValue({ stress: 3 }, "stress.engine"), undefined);
  assert.equal(sectionValue(undefined, "service"), undefined);
  const section = { service: "tablestore", typescript: { testFiles: true }, partitionTargetEntitiesPerSecond: "fast" };
  assert.deepEqual(
    analysisSettings((name) => sectionValue(section, name)),
    {
      options: { defaultService: "tablestore", loadRulesInTests: true },
      problems: ["tableDesign.partitionTargetEntitiesPerSecond must be a number of entities per second above 0"],
    },
  );
});

/** Every TypeScript source file of the extension and the server. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f));
}

test("every setting is read through the registry: named in the code by its getter, and no other file asks VS Code for one", () => {
  const files = [...sources("client"), ...sources("server")];
  const text = files.map((f) => readFileSync(f, "utf8")).join("\n");
  const analysis = ["service", "partitionTargetEntitiesPerSecond", "rules", "typescript.testFiles"];
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    if (analysis.includes(name)) continue;
    assert.ok(text.includes(`etting("${name}"`), `${settingId(name)} is never read`);
  }
  const asking = files.filter((f) => readFileSync(f, "utf8").includes("getConfiguration("));
  assert.deepEqual(asking.sort(), [path.join("client", "vscode", "settings.ts"), path.join("server", "server.ts")]);
});
