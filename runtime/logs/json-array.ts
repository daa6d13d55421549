/**
 * The elements of a top-level JSON array, cut out of the text as it
 * streams in — a Log Analytics export of a million rows is one array, and
 * must not be held whole. Only the array's structure is followed (strings,
 * escapes, nesting); each element's text is then JSON.parse's to judge.
 * An element larger than MAX_ELEMENT_CHARS means the structure is broken
 * (an unclosed string or bracket): the rest of the file cannot be cut
 * reliably, and the caller says so.
 */
import { formatCount } from "@core/text/words";

/** No row of these logs comes near this; an element that does is a broken file. */
export const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

export class JsonArraySplitter {
  private state: "before" | "between" | "element" | "after" | "broken" = "before";
  private depth = 0;
  private inString = false;
  private escaped = false;
  private parts: string[] = [];
  private size = 0;
  /** Why the structure is broken, when it is. */
  problem: string | undefined;

  get done(): boolean {
    return this.state === "after" || this.state === "broken";
  }

  /** Reads a chunk; `emit` gets each element's text as soon as it is complete. */
  push(chunk: string, emit: (element: string) => void): void {
    let start = this.state === "element" ? 0 : -1;
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const c = chunk.charCodeAt(i);
      if (this.state === "before") {
        if (c === 91 /* [ */) this.state = "between";
        else if (!space(c)) this.fail("the file does not start with '['");
        continue;
      }
      if (this.state === "between") {
        if (c === 93 /* ] */) this.state = "after";
        else if (c !== 44 /* , */ && !space(c)) {
          this.state = "element";
          start = i;
          this.depth = 0;
          i--; // read this character as the element's first
        }
        continue;
      }
      // Inside an element.
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 123 /* { */ || c === 91) this.depth++;
      else if (c === 125 /* } */ || c === 93) {
        if (this.depth === 0) {
          // `]` closing the array right after a scalar element.
          this.finish(chunk.slice(start, i), emit);
          this.state = "after";
        } else if (--this.depth === 0) {
          this.finish(chunk.slice(start, i + 1), emit);
          this.state = "between";
        }
      } else if (c === 44 && this.depth === 0) {
        this.finish(chunk.slice(start, i), emit);
        this.state = "between";
      }
    }
    if (this.state === "element" && start >= 0) {
      const piece = chunk.slice(start);
      this.parts.push(piece);
      this.size += piece.length;
      if (this.size > MAX_ELEMENT_CHARS)
        this.fail(`an element longer than ${formatCount(MAX_ELEMENT_CHARS)} characters (an unclosed string or bracket)`);
    }
  }

  /** The end of the file: a problem when the array never closed. */
  end(): string | undefined {
    if (this.state === "before") return "the file is empty";
    if (this.state === "between" || this.state === "element") return "the array is not closed: the file ends inside it";
    return this.problem;
  }

  private finish(last: string, emit: (element: string) => void): void {
    const text = this.parts.length ? this.parts.join("") + last : last;
    this.parts = [];
    this.size = 0;
    emit(text);
  }

  private fail(problem: string): void {
    this.state = "broken";
    this.problem = problem;
    this.parts = [];
    this.size = 0;
  }
}

function space(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;
}
