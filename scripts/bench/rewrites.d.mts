export interface Site {
  file: string;
  line: number;
  code: string;
  /** "must" (the default): a finding that must hold; "mustnot": a place where the code must not fire. */
  kind?: "must" | "mustnot";
}
interface Analyzer {
  update(file: string, text: string | undefined): void;
  close(file: string): void;
  analyze(file: string): { findings: Array<{ code: string; start: number; severity?: string }> };
}
export interface RewriteResult {
  perRewrite: Record<string, { tried: number; survived: number; newAlarms: number }>;
  perRule: Record<string, { tried: number; survived: number }>;
  failures: Array<{ rewrite: string; file: string; line: number; code: string; newAlarm?: boolean; error?: string }>;
}
export interface Rewritten {
  files: Array<{ file: string; text: string }>;
  at(line: number): Array<{ file: string; line: number }>;
}
export const REWRITES: Record<string, (fileName: string, text: string, line: number) => Rewritten | undefined>;
export function rewriteSurvival(
  sites: Site[],
  analyzerFor: (file: string) => Analyzer,
  rewrites?: string[],
  options?: { anyAlarm?: boolean; sample?: (site: Site, rewrite: string) => boolean },
): RewriteResult;
export function corpusSites(root: string): Site[];
export function sharedSites(tsv: string, copy: string): Site[];
export function printRewrites(result: RewriteResult, title: string, show?: number): void;
export function benchRewrites(root: string, TsAnalyzer: new (options?: object) => Analyzer): Promise<void>;
export function run(): Promise<void>;
