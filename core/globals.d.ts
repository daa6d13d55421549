/**
 * The one global the core uses beyond ECMAScript: WHATWG's TextEncoder, which
 * both Node and the browsers provide. Declared here because the core compiles
 * without Node's types or the DOM's (it runs under both).
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
