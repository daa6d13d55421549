/**
 * What stops a table's module from being generated: an error of the design
 * (the analyzer's), or something the generated code could not represent.
 */
import { InputError } from "@core/errors";

/** A reason a table gets no module, at a spot of the design (document offsets). */
export interface CodegenProblem {
  table?: string;
  /** The rule's code for a design error; `codegen` for the generator's own. */
  code: string;
  message: string;
  start: number;
  end: number;
}

/** Thrown while planning a table: the generator's own reason to refuse it. */
export class CodegenError extends InputError {
  constructor(
    message: string,
    readonly start?: number,
    readonly end?: number,
  ) {
    super(message);
  }
}
