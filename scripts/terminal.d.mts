// Types of terminal.mjs for the TypeScript tests.
/** Runs `argv` on a real pseudo-terminal; `answer` returns the line to type once it recognises the question. */
export function atTerminal(
  argv: string[],
  options?: { env?: NodeJS.ProcessEnv; answer?: (printed: string) => Promise<string | undefined> },
): Promise<{ code: number | null; printed: string }>;
