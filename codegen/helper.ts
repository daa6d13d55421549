/**
 * The unit the generated modules are made of: a helper of the runtime that a
 * module carries, with the helpers it uses and the imports it needs.
 */
import type { ServiceProfile } from "@core";

/** A helper of the runtime: its source, what it uses, what it imports. */
export interface Helper {
  deps: string[];
  /** Imports the helper needs: module → names. */
  imports?: Record<string, string[]>;
  code: (profile: ServiceProfile) => string;
}
