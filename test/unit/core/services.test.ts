import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { azureForbiddenKeyChar, isServiceName, resolveOptions, SERVICE_NAMES, SERVICES } from "@core";

test("the setting's enum in package.json is the services table's names", () => {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  assert.deepEqual(pkg.contributes.configuration.properties["tableDesign.service"].enum, SERVICE_NAMES);
  assert.equal(pkg.contributes.configuration.properties["tableDesign.service"].default, SERVICE_NAMES[0]);
});

test("the grammar colours exactly the services table's names after 'service'", () => {
  const grammar = readFileSync("syntaxes/tdl.tmLanguage.json", "utf8");
  const m = /\\\\b\(service\)\\\\s\+\(([^)]*)\)/.exec(grammar);
  assert.ok(m, "the grammar has a service rule");
  assert.deepEqual(m[1].split("|"), SERVICE_NAMES);
});

test("every profile carries its own name, and names are recognised from the table alone", () => {
  for (const name of SERVICE_NAMES) assert.equal(SERVICES[name].name, name);
  assert.ok(isServiceName("tablestore"));
  for (const other of ["constructor", "toString", "Azure-Table", "", undefined, 3])
    assert.equal(isServiceName(other), false, String(other));
});

test("a profile that forbids key characters says which in words, and Azure's set is exactly / \\ # ? and the control characters", () => {
  for (const name of SERVICE_NAMES) {
    const p = SERVICES[name];
    assert.equal(p.forbiddenKeyText === undefined, p.forbiddenKeyChar === undefined, name);
  }
  const forbidden = Array.from({ length: 0x10000 }, (_, c) => c).filter((c) => azureForbiddenKeyChar(c));
  const controls = [...Array.from({ length: 0x20 }, (_, c) => c), ...Array.from({ length: 0x21 }, (_, c) => 0x7f + c)];
  assert.deepEqual(
    forbidden,
    [...controls, ...[..."/\\#?"].map((c) => c.charCodeAt(0))].sort((a, b) => a - b),
  );
  assert.equal(SERVICES["azure-table"].forbiddenKeyChar, azureForbiddenKeyChar);
  assert.equal(SERVICES["cosmos-table"].forbiddenKeyChar, azureForbiddenKeyChar);
  assert.equal(SERVICES["azure-table"].forbiddenKeyText, "/ \\ # ? and control characters");
});

test("resolveOptions keeps what can be used and names what cannot, without echoing long values", () => {
  assert.deepEqual(resolveOptions({ service: "tablestore", partitionTargetEntitiesPerSecond: 500 }), {
    options: { defaultService: "tablestore", partitionTargetEntitiesPerSecond: 500 },
    problems: [],
  });
  assert.deepEqual(resolveOptions({ partitionTargetEntitiesPerSecond: "250" }).options, { partitionTargetEntitiesPerSecond: 250 });
  const bad = resolveOptions(
    { service: "dynamo", partitionTargetEntitiesPerSecond: -1 },
    { service: "--service", target: "--partition-target" },
  );
  assert.deepEqual(bad.options, {});
  assert.deepEqual(bad.problems, [
    "--service must be one of azure-table, cosmos-table, tablestore, not 'dynamo'",
    "--partition-target must be a number of entities per second above 0",
  ]);
  assert.ok(!resolveOptions({ service: "x".repeat(5000) }).problems[0].includes("xxxxx"));
  assert.deepEqual(resolveOptions(null), { options: {}, problems: [] });
  assert.deepEqual(resolveOptions("azure-table"), { options: {}, problems: [] });
});
