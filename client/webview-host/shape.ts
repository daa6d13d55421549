/**
 * Small, strict shape checks for what a page sends. A `Shape<T>` takes an
 * untrusted value and returns a fresh copy typed `T`, or throws a
 * `ShapeError` naming where (`params.row.etag`) and which rule failed —
 * never the value, which may be large or private. Objects accept their
 * declared own keys only (no extra keys, nothing inherited), strings and
 * lists have bounded lengths, numbers are checked integers.
 *
 * `Fields<T>` makes the compiler demand a shape for every field of `T`, with
 * `optional()` exactly where `T`'s field is optional.
 */
import { UsageError } from "@core/errors";
import { formatCount } from "@core/text/words";

export class ShapeError extends UsageError {
  constructor(
    readonly path: string,
    readonly rule: string,
  ) {
    super(`${path}: ${rule}`);
  }
}

export type Shape<T> = (value: unknown, path: string) => T;

export interface Optional<T> {
  readonly optional: Shape<T>;
}

/** One shape per field of `T`; optional fields need `optional(…)`. */
export type Fields<T> = { [K in keyof T]-?: undefined extends T[K] ? Optional<Exclude<T[K], undefined>> : Shape<T[K]> };

export function optional<T>(shape: Shape<T>): Optional<T> {
  return { optional: shape };
}

/** A key or name fit to appear in a message: short identifiers as they are, anything else by its length. */
export function describeName(name: string): string {
  return /^[A-Za-z_$][\w$.]{0,63}$/.test(name) ? name : `a name of ${name.length} characters`;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** An object with exactly the declared fields (optional ones may be absent or undefined). */
export function object<T extends object>(fields: Fields<T>): Shape<T> {
  const declared = fields as Record<string, Shape<unknown> | Optional<unknown>>;
  return (value, path) => {
    if (!isPlainObject(value)) throw new ShapeError(path, "must be an object");
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(declared, key)) throw new ShapeError(path, `has no field '${describeName(key)}'`);
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(declared)) {
      const field = declared[key];
      const v = Object.hasOwn(value, key) ? value[key] : undefined;
      if (typeof field === "function") {
        if (v === undefined) throw new ShapeError(`${path}.${key}`, "is required");
        out[key] = field(v, `${path}.${key}`);
      } else if (v !== undefined) {
        out[key] = field.optional(v, `${path}.${key}`);
      }
    }
    return out as T;
  };
}

export interface TextRule {
  max: number;
  min?: number;
  /** Tested after the length check, so it only ever sees bounded input. */
  pattern?: RegExp;
  /** What the pattern means, for the message. */
  rule?: string;
  /** A further check: returns why the text is refused. */
  refuse?: (text: string) => string | undefined;
}

export function text(r: TextRule): Shape<string> {
  return (value, path) => {
    if (typeof value !== "string") throw new ShapeError(path, "must be a string");
    if (value.length > r.max) throw new ShapeError(path, `is longer than ${formatCount(r.max)} characters`);
    if (value.length < (r.min ?? 0)) throw new ShapeError(path, r.min === 1 ? "must not be empty" : `is shorter than ${r.min} characters`);
    if (r.pattern && !r.pattern.test(value)) throw new ShapeError(path, r.rule ?? "has an unexpected form");
    const why = r.refuse?.(value);
    if (why) throw new ShapeError(path, why);
    return value;
  };
}

export function integer(min: number, max: number): Shape<number> {
  return (value, path) => {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new ShapeError(path, "must be an integer");
    if (value < min || value > max) throw new ShapeError(path, `must be from ${formatCount(min)} to ${formatCount(max)}`);
    return value;
  };
}

export function oneOf<T extends string>(values: readonly T[]): Shape<T> {
  return (value, path) => {
    if (typeof value !== "string" || !(values as readonly string[]).includes(value))
      throw new ShapeError(path, `must be one of ${values.join(", ")}`);
    return value as T;
  };
}

export function list<T>(item: Shape<T>, max: number): Shape<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new ShapeError(path, "must be a list");
    if (value.length > max) throw new ShapeError(path, `has more than ${formatCount(max)} items`);
    const out: T[] = [];
    for (let i = 0; i < value.length; i++) out.push(item(value[i], `${path}[${i}]`));
    return out;
  };
}

/** A map from checked names to checked values, at most `maxKeys` of them. */
export function dictionary<T>(key: Shape<string>, item: Shape<T>, maxKeys: number): Shape<Record<string, T>> {
  return (value, path) => {
    if (!isPlainObject(value)) throw new ShapeError(path, "must be an object");
    const keys = Object.keys(value);
    if (keys.length > maxKeys) throw new ShapeError(path, `has more than ${formatCount(maxKeys)} entries`);
    const entries: Array<[string, T]> = [];
    for (const k of keys) {
      const name = key(k, `${path} name '${describeName(k)}'`);
      entries.push([name, item(value[k], `${path}.${describeName(k)}`)]);
    }
    // fromEntries defines own properties: a key named `__proto__` (were one allowed) could not reach the prototype.
    return Object.fromEntries(entries);
  };
}
