// Types of workspace.mjs for the TypeScript tests.
export const WORKSPACE: string;
/** The workspace under `root`: created from root/examples when missing or reset, otherwise kept as it is. */
export function userWorkspace(options: { root: string; reset?: boolean }): { dir: string; state: "created" | "kept" | "reset" };
