/**
 * Checks a tool's input against its JSON schema before the handler sees it,
 * so that every front end refuses the same inputs with the same sentence
 * (an agent that sends a number for a path, an unknown property, a string
 * past its bound). Only the keywords the tools' schemas use (tool.ts's
 * JsonSchema); the test checks each schema with a full validator too.
 */
import { formatCount } from "@core";
import { UsageError } from "@core/errors";
import type { JsonSchema } from "./tool";

/** The input as the handler may take it, or a UsageError naming the first problem. */
export function checkInput(schema: JsonSchema, input: unknown): Record<string, unknown> {
  const problem = problemOf(schema, input ?? {}, "input");
  if (problem) throw new UsageError(problem);
  return (input ?? {}) as Record<string, unknown>;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function problemOf(schema: JsonSchema, value: unknown, at: string): string | undefined {
  if (schema.anyOf) {
    const problems = schema.anyOf.map((s) => problemOf(s, value, at));
    return problems.every((p) => p !== undefined) ? problems[0] : undefined;
  }
  const actual = typeOf(value);
  if (schema.type && !(actual === schema.type || (schema.type === "number" && actual === "integer")))
    return `${at} must be ${schema.type === "integer" ? "a whole number" : `a${/^[aeiou]/.test(schema.type) ? "n" : ""} ${schema.type}`}, not ${actual}`;
  if (schema.enum && !schema.enum.includes(value as string | number))
    return `${at} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`;
  if (typeof value === "string") {
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      return `${at} is ${formatCount(value.length)} characters long; at most ${formatCount(schema.maxLength)} are taken`;
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${at} must not be empty`;
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return `${at} must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${at} must be at most ${formatCount(schema.maximum)}`;
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${at} holds more than ${schema.maxItems} items`;
    for (let i = 0; i < value.length; i++) {
      const p = schema.items && problemOf(schema.items, value[i], `${at}[${i}]`);
      if (p) return p;
    }
  }
  if (actual === "object") return objectProblem(schema, value as Record<string, unknown>, at);
  return undefined;
}

function objectProblem(schema: JsonSchema, value: Record<string, unknown>, at: string): string | undefined {
  for (const key of schema.required ?? []) if (value[key] === undefined) return `${at} needs '${key}'`;
  for (const [key, v] of Object.entries(value)) {
    const own = schema.properties && Object.prototype.hasOwnProperty.call(schema.properties, key) ? schema.properties[key] : undefined;
    if (!own) {
      if (schema.additionalProperties === false) return `${at} has an unknown property '${key.slice(0, 60)}'`;
      if (typeof schema.additionalProperties === "object") {
        const p = problemOf(schema.additionalProperties, v, `${at}.${key.slice(0, 60)}`);
        if (p) return p;
      }
      continue;
    }
    const p = problemOf(own, v, `${at}.${key}`);
    if (p) return p;
  }
  return undefined;
}
