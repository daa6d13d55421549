/**
 * The small runtime every generated module carries: value checks, the key
 * functions (pad, hash, bucket, reverse, date) exactly as the analyzer's
 * `renderKey` computes them, the splitter behind the parsers, and the
 * readers. A module holds only the helpers it uses (and what they use), so
 * a strict `noUnusedLocals` build stays clean.
 */
import { ServiceProfile } from "@core";
import { CHECK_HELPERS } from "./runtime-checks";
import { KEY_HELPERS } from "./runtime-keys";
import { PARSE_HELPERS } from "./runtime-parse";
import { ROW_HELPERS } from "./runtime-rows";
import { str } from "./source";
import type { Helper } from "./helper";

/** Every helper by name; a module's helpers come out in this order. */
const HELPERS: Record<string, Helper> = { ...CHECK_HELPERS, ...KEY_HELPERS, ...PARSE_HELPERS, ...ROW_HELPERS };

/** The helpers a module uses, with their dependencies, in a stable order. */
export class Runtime {
  private readonly used = new Set<string>();
  private readonly declared = new Map<string, string>();

  constructor(private readonly profile: ServiceProfile) {}

  /** Marks a helper (and what it needs) as used; returns its name for the caller's expression. */
  use(name: string): string {
    if (this.used.has(name)) return name;
    const helper = HELPERS[name];
    if (!helper) throw new Error(`codegen: no runtime helper '${name}'`);
    this.used.add(name);
    for (const dep of helper.deps) this.use(dep);
    return name;
  }

  /** Marks a module-level declaration of the table (an enum's values, a charset) as used; returns its name. */
  declare(name: string, code: string): string {
    this.declared.set(name, code);
    return name;
  }

  /** The used declarations, in the order of first use. */
  declarations(): string[] {
    return [...this.declared.values()];
  }

  /** Import lines the used helpers need. */
  imports(): string[] {
    const byModule = new Map<string, Set<string>>();
    for (const name of this.ordered()) {
      for (const [mod, names] of Object.entries(HELPERS[name].imports ?? {})) {
        const set = byModule.get(mod) ?? new Set<string>();
        for (const n of names) set.add(n);
        byModule.set(mod, set);
      }
    }
    return [...byModule].map(([mod, names]) => `import { ${[...names].sort().join(", ")} } from ${str(mod)};`);
  }

  /** The source of every used helper, in declaration order. */
  code(): string[] {
    return this.ordered().map((name) => HELPERS[name].code(this.profile));
  }

  private ordered(): string[] {
    return Object.keys(HELPERS).filter((name) => this.used.has(name));
  }
}
