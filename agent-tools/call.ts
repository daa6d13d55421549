/**
 * Calls a tool as every front end does: the input checked against its
 * schema, the handler run, and the outcome as JSON text — the output, or
 * the error's one bounded line with its kind. Never a stack, never a
 * secret: an error's text goes through the runtime's redaction, and a
 * failure no one expected is named `internal` without its details (they
 * go to `log`).
 */
import { describeError, kindOf, stackOf, type ErrorKind } from "@core/errors";
import { redact } from "@runtime";
import type { AnyTool, ToolContext } from "./tool";
import { checkInput } from "./validate";

export type ToolAnswer = { ok: true; output: object; text: string } | { ok: false; kind: ErrorKind; message: string; text: string };

/** Runs `tool` on `input`; what it throws comes back as an answer with `ok: false`. */
export async function callTool(tool: AnyTool, input: unknown, context: ToolContext, log?: (line: string) => void): Promise<ToolAnswer> {
  try {
    const output = await tool.run(checkInput(tool.inputSchema, input), context);
    return { ok: true, output, text: JSON.stringify(output, null, 2) };
  } catch (e) {
    const kind = kindOf(e);
    if (kind === "internal") log?.(redact(`${tool.name}: ${stackOf(e)}`));
    const message =
      kind === "internal" ? `${tool.name} failed unexpectedly (an internal error: ${redact(describeError(e))})` : redact(describeError(e));
    return { ok: false, kind, message, text: `${kind} error: ${message}` };
  }
}
