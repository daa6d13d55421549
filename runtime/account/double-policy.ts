/**
 * Keeps `Edm.Double` on whole numbers. The service writes a Double as a JSON
 * number with a decimal point (`5.0`) and no type annotation; JSON parsing
 * turns it into 5, and the SDK then calls it Int32 — so an entity read and
 * written back would change type, and `Total gt 10.0` would stop matching it
 * (Azure/azure-sdk-for-js #19899). This pipeline policy reads the raw
 * response before the SDK parses it and annotates every unannotated number
 * written with a `.` or an exponent as `Edm.Double`, as Azure Storage
 * Explorer does. Numbers are found with jsonc-parser's tree, which keeps each
 * token's source text.
 */
import type { PipelinePolicy } from "@azure/core-rest-pipeline";
import { Node, parseTree } from "jsonc-parser";

/** The policy, for `additionalPolicies` with `position: "perRetry"` (it sees the body before the SDK's deserializer does). */
export const keepDoublesPolicy: PipelinePolicy = {
  name: "tdlKeepDoubles",
  async sendRequest(request, next) {
    const response = await next(request);
    const type = response.headers.get("content-type") ?? "";
    if (response.bodyAsText && type.includes("json")) response.bodyAsText = annotateDoubles(response.bodyAsText);
    return response;
  },
};

/** The body with `"P@odata.type":"Edm.Double"` added beside each unannotated decimal number of each entity. */
export function annotateDoubles(body: string): string {
  // A property's number with a point or an exponent comes right after `":` (a Timestamp's `12:05:12.5` does not); a body without one (most pages) is not parsed.
  if (!/"\s*:\s*-?\d+(?:\.|[eE])/.test(body)) return body;
  const root = parseTree(body);
  if (!root) return body;
  const inserts: Array<{ at: number; text: string }> = [];
  const entities = root.type === "object" ? (arrayOf(root, "value")?.children ?? [root]) : [];
  for (const entity of entities) {
    if (entity.type !== "object") continue;
    const names = new Set((entity.children ?? []).map((p) => String(p.children?.[0]?.value)));
    for (const prop of entity.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (!key || value?.type !== "number") continue;
      const name = String(key.value);
      if (names.has(`${name}@odata.type`) || name.includes("@")) continue;
      if (/[.eE]/.test(body.slice(value.offset, value.offset + value.length)))
        inserts.push({ at: prop.offset + prop.length, text: `,${JSON.stringify(`${name}@odata.type`)}:"Edm.Double"` });
    }
  }
  let out = body;
  for (const { at, text } of inserts.reverse()) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

function arrayOf(object: Node, name: string): Node | undefined {
  const prop = object.children?.find((p) => p.children?.[0]?.value === name);
  const value = prop?.children?.[1];
  return value?.type === "array" ? value : undefined;
}
