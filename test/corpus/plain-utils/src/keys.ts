// Key helpers used by several services; none of them talks to a table here.
export const pad = (n: number, width = 10) => String(n).padStart(width, "0");
export const bucketOf = (d: Date) => d.toISOString().slice(0, 10);
export const composite = (...parts: string[]) => parts.join(",");
export const now = () => `${Date.now()}`;
