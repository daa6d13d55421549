export interface CorpusScore {
  projects: number;
  files: number;
  expected: number;
  truePositives: number;
  reported: number;
  missed: string[];
  falseAlarms: string[];
  queries: { labelled: number; answered: number; right: number; wrong: string[]; unlabelled: string[] };
  ms: number;
}
interface Analyzer {
  update(file: string, text: string): void;
  analyze(file: string): { findings: Array<{ code: string; severity: string; start: number; message: string }> };
}
export function scoreCorpus(makeAnalyzer: () => Analyzer, root: string): CorpusScore;
export function corpusFigures(r: CorpusScore): { recall: number; falseAlarmShare: number; queriesAnswered: number; queriesRight: number };
