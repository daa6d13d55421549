export interface Site {
  file: string;
  line: number;
  code: string;
}
interface Analyzer {
  update(file: string, text: string): void;
  analyze(file: string): { findings: Array<{ code: string; start: number }> };
}
export interface RewriteResult {
  perRewrite: Record<string, { tried: number; survived: number; newAlarms: number }>;
  perRule: Record<string, { tried: number; survived: number }>;
  failures: Array<{ rewrite: string; file: string; line: number; code: string; newAlarm?: boolean }>;
}
export const REWRITES: Record<
  string,
  (fileName: string, text: string, line: number) => { text: string; line: (l: number) => number } | undefined
>;
export function rewriteSurvival(sites: Site[], analyzerFor: (file: string) => Analyzer, rewrites?: string[]): RewriteResult;
export function corpusSites(root: string): Site[];
export function sharedSites(tsv: string, copy: string): Site[];
export function printRewrites(result: RewriteResult, title: string, show?: number): void;
export function benchRewrites(root: string, TsAnalyzer: new () => Analyzer): Promise<void>;
