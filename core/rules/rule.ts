/**
 * The shape of a rule, one for both languages: a record with its code, its
 * default severity, its documentation (what docs/rules.md and the SARIF
 * output say of it), its traits, its named messages and its check. A check
 * reports a span, a message id and that message's parameters; the context
 * fills in the code, the severity and the sentence, so a rule cannot report
 * under another's name nor say what its record does not list. Fixes travel
 * with the finding and reach the client in `Diagnostic.data`, matched on
 * `code`. Every set of codes (load rules, the codes of a broken design…) is a
 * filter over the records' traits (`codesWith`), never a list of its own.
 */
import { Table } from "../tdl/ast";
import { ServiceProfile } from "../services";
import { PropertyInfo } from "../model/properties";
import { PropertyRef } from "../model/references";
import type { TableModel } from "../model/table-model";
import { Finding, Fix, Severity } from "../findings";
import { AnalysisOptions } from "../options";

/** What the catalog says of a rule. */
export interface RuleDocs {
  /** When it fires, in one line: the catalog's "when" column and SARIF's short description. */
  summary: string;
  /** Why it matters: the fact behind it (SARIF's full description, after the summary). */
  why: string;
  /** What its quick fix does; absent when it has none. */
  fix?: string;
  /** The severity as the catalog states it, when the check raises or lowers it ("warning (error when a query ranges over it)"). */
  severityNote?: string;
}

/** The catalog's sections, in order. */
export const FAMILIES = [
  "Syntax and meaning",
  "Keys",
  "Partitions and load",
  "Queries",
  "Transactions and entities",
  "TypeScript code",
] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * What a rule is, beyond its code, for the parts of the product that treat
 * codes alike: each trait replaces a list of codes kept elsewhere.
 */
export interface RuleTraits {
  /** It judges how writes spread over partitions: a test's fixed keys are no design, so it is off in test files unless turned on. */
  load?: boolean;
  /** Its finding means the design does not stand (it does not parse, or names what is not there): a fix may not cause one. */
  broken?: boolean;
  /** Never silenced with `// tdl-ignore-next-line`: the check is incomplete, or the text does not parse. */
  neverSuppress?: boolean;
  /** It is about the partition key's load or size: its preferred fix is the alternative a stress test compares with. */
  partition?: boolean;
  /** The code has left its design (`tdl check --design-drift` makes it an error). */
  drift?: boolean;
  /** A fix may never cause one, whatever the severity of what it fixes (a key that updates would move). */
  neverIntroduced?: boolean;
}

/** A rule's messages by id: each builds the sentence from its parameters (none, or one object of them). */
export type Messages = Record<string, (data: never) => string>;

/** The parameters of one message: an object, or nothing for a fixed sentence. */
export type MessageData<F> = F extends () => string ? undefined : F extends (data: infer D) => string ? D : never;

/** What every rule of either language is: the part the catalog, the SARIF output and the severity settings read. */
export interface RuleRecord<M extends Messages = Messages> {
  code: string;
  /** The default severity; a check may raise or lower it for one finding, the user's settings override it. */
  severity: Severity;
  family: Family;
  docs: RuleDocs;
  traits?: RuleTraits;
  /** Every sentence the rule can say, by id; a finding carries the id and the parameters, tests assert those. */
  messages: M;
}

/** The codes of the records that have a trait: the one way to name a set of codes. */
export function codesWith(records: readonly RuleRecord[], trait: keyof RuleTraits): ReadonlySet<string> {
  return new Set(records.filter((r) => r.traits?.[trait]).map((r) => r.code));
}

/** The finding's message id, its parameters and its sentence, from the record's messages. */
export function said<M extends Messages>(
  rule: RuleRecord<M>,
  messageId: keyof M & string,
  data: unknown,
): Pick<Finding, "message" | "messageId" | "data"> {
  const build = rule.messages[messageId] as unknown as ((data: unknown) => string) | undefined;
  if (!build) throw new Error(`rule ${rule.code} has no message '${messageId}'`);
  const out: Pick<Finding, "message" | "messageId" | "data"> = { message: build(data), messageId };
  if (data !== undefined) out.data = data as Record<string, unknown>;
  return out;
}

/** The anchor of a code's row in docs/rules.md (`key/unpadded-number` → `key-unpadded-number`): the catalog writes it, links and SARIF point at it. */
export const ruleAnchor = (code: string): string => code.replace(/[^a-z0-9]+/g, "-");

/** Where a finding sits: offsets into the text the check was given. */
export interface Span {
  start: number;
  end: number;
}

/** What a report may add to the finding: its fixes, a severity other than the rule's default. */
export interface ReportMore {
  fixes?: Fix[];
  severity?: Severity;
}

/** The arguments after the message id: its parameters (left out for a fixed sentence), then what else the finding carries. */
export type ReportArgs<F, More> = F extends () => string ? [data?: undefined, more?: More] : [data: MessageData<F>, more?: More];

/** Reports one finding of the rule being run by message id and parameters: its code, default severity and sentence are filled in. */
export type Report<M extends Messages = Messages> = <K extends keyof M & string>(
  at: Span,
  messageId: K,
  ...rest: ReportArgs<M[K], ReportMore>
) => void;

interface Context<M extends Messages> {
  profile: ServiceProfile;
  options: AnalysisOptions;
  report: Report<M>;
}

/** A whole file: every table with its chunk offset (`base`); spans are absolute offsets. */
export interface FileContext<M extends Messages = Messages> extends Context<M> {
  text: string;
  tables: ReadonlyArray<TableModel>;
}

/** One table: spans are relative to its chunk (`text`), so results can be reused when the table moves. */
export interface TableContext<M extends Messages = Messages> extends Context<M> {
  text: string;
  table: Table;
  props: ReadonlyMap<string, PropertyInfo>;
  refs: PropertyRef[];
}

/** A rule of `.tdl` designs. */
export interface Rule<M extends Messages = Messages> extends RuleRecord<M> {
  /** Runs on tables with syntax errors too (only the name checks do). */
  onBrokenTables?: boolean;
  checkFile?(ctx: FileContext<M>): void;
  checkTable?(ctx: TableContext<M>): void;
}

/** A `.tdl` rule, its messages' parameters checked at every report (as typescript-eslint's `createRule`). */
export const defineRule = <M extends Messages>(rule: Rule<M>): Rule<M> => rule;

/** The report function of one rule: it fills in the rule's code, default severity and sentence, and collects into `out`. */
export function reporterFor<M extends Messages>(rule: RuleRecord<M>, out: Finding[]): Report<M> {
  return (at: Span, messageId: keyof M & string, data?: unknown, more?: ReportMore) => {
    const finding: Finding = {
      code: rule.code,
      severity: more?.severity ?? rule.severity,
      start: at.start,
      end: at.end,
      ...said(rule, messageId, data),
    };
    if (more?.fixes) finding.fixes = more.fixes;
    out.push(finding);
  };
}
