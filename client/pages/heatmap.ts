/**
 * The key-space heatmap's host. Live (its command): the emulator's recent
 * seconds and the host's clock at the handshake, then one `traffic` event
 * a second — the recorder's seconds while the user's app, tests or a
 * stress test run, an empty second each second while nothing runs, so the
 * map moves on and its summary says the emulator is idle; the command
 * starts the emulator first. Opened with a heatmap of a service's logs
 * ("Open a Heatmap from Storage Logs…"): those cells and lists, in a panel
 * of their own, and nothing follows.
 */
import * as path from "node:path";
import type { TrafficSecond } from "@protocol/traffic";
import type { LogHeatmap } from "@protocol/log-heatmap";
import { PAGES, type LogComparison, type LogDesignChoice } from "@protocol/pages";
import type { AnalysisOptions } from "@core";
import { InputError } from "@core/errors";
import { clip, listNames } from "@core/text/words";
import { comparableTables, compareWithDesign, nothingReadable, readLogHeatmap, type LogHeatmapOptions } from "@runtime";
import { optional, text } from "../webview-host/shape";
import { hostPage } from "./host-page";

/** A design the page may set the logs against: its label (the workspace-relative path) and text. */
export interface LogDesign {
  label: string;
  text: string;
}

/** A heatmap of logs and its tab's title; the workspace's designs, the choice remembered for it, and where to remember the next. */
export interface LogHeatmapArgs {
  logs: LogHeatmap;
  title: string;
  designs?: LogDesign[];
  choice?: LogDesignChoice;
  remember?: (choice: LogDesignChoice) => void;
  analysis?: AnalysisOptions;
}

/** What opening the heatmap takes: nothing (live; a test gives it a fixed clock), or a heatmap of logs. */
export type HeatmapArgs = { now?: () => number } | LogHeatmapArgs | undefined;

/** What reading logs for the panel takes: how to name them, a design to compare with, and the reading's signal and progress. */
export interface LogHeatmapRead extends Pick<LogHeatmapOptions, "signal" | "onProgress"> {
  /** The paths as messages name them. */
  shown: string;
  design?: { text: string; label: string; analysis?: AnalysisOptions };
}

/**
 * Reads the logs below `paths` for the heatmap panel ("Open a Heatmap from
 * Storage Logs…"). A path that cannot be read, and logs with no record in
 * them, are InputErrors (a warning with their sentence); a reading the
 * signal stopped is an AbortError (said by nobody).
 */
export async function readLogsForPanel(paths: readonly string[], o: LogHeatmapRead): Promise<LogHeatmapArgs> {
  const logs = await readLogHeatmap(paths, { signal: o.signal, onProgress: o.onProgress });
  if (o.signal?.aborted) throw Object.assign(new Error("cancelled"), { name: "AbortError" });
  const empty = nothingReadable(logs, o.shown);
  if (empty) throw new InputError(empty);
  if (o.design) logs.design = compareWithDesign(logs, o.design.text, o.design.label, { analysis: o.design.analysis });
  return { logs, title: `Heatmap: ${paths.length === 1 ? path.basename(paths[0]) : o.shown}` };
}

export default hostPage<"heatmap", HeatmapArgs>({
  view: "heatmap",
  column: "beside",
  retain: true,
  single: true,
  shapes: {
    "heatmap.compare": {
      design: optional(text({ max: 1000 })),
      table: optional(text({ max: 255 })),
      scale: optional(text({ max: 40 })),
    },
  },
  title: (args) => (args && "logs" in args ? args.title : PAGES.heatmap.title),
  serve(services, emit, args) {
    if (args && "logs" in args) {
      const { seconds, ...logs } = args.logs;
      const designs = (args.designs ?? []).map((d) => ({ label: d.label, tables: comparableTables(d.text, args.analysis) }));
      let shown: LogComparison = { partitions: logs.partitions, ...(logs.design ? { design: logs.design } : {}), choice: {} };
      // The choice remembered for the workspace, when it still names a design and table there.
      if (args.choice?.design !== undefined) {
        try {
          shown = compareLogs(args, args.choice);
        } catch {
          // A design renamed or a table removed since: the page opens without a design, and the user picks again.
        }
      }
      return {
        handlers: {
          "heatmap.compare": async (choice) => {
            shown = compareLogs(args, choice);
            args.remember?.(shown.choice);
            return shown;
          },
        },
        state: () => ({
          seconds,
          logs: { ...logs, partitions: shown.partitions, design: shown.design, title: args.title, designs, choice: shown.choice },
        }),
      };
    }
    const now = args?.now ?? Date.now;
    const { emulator } = services;
    const idle = new IdleSeconds();
    for (const s of emulator.recentTraffic()) idle.sent(s.t);
    // The host drops events until the page is ready; the page's start state carries the seconds before that.
    const onSecond = (second: TrafficSecond) => {
      idle.sent(second.t);
      emit({ type: "traffic", second });
    };
    emulator.onTraffic(onSecond);
    const clock = setInterval(() => {
      const empty = idle.tick(now());
      if (empty) emit({ type: "traffic", second: empty });
    }, 1000);
    return {
      handlers: {
        "heatmap.compare": () => Promise.reject(new InputError("the live heatmap has no logs to set against a design")),
      },
      state: () => ({ seconds: emulator.recentTraffic(), now: now() }),
      dispose: () => {
        clearInterval(clock);
        emulator.offTraffic(onSecond);
      },
    };
  },
  async command(services, open) {
    if (!services.emulator.running) await services.emulator.start();
    open();
  },
});

/**
 * The logs set against `choice`: a design of the workspace by its label,
 * one of its tables (every log table is read as it; absent: each log table
 * as the design table that matches it) and the scale of its rates. A name
 * that is not there is an InputError naming what is.
 */
export function compareLogs(args: LogHeatmapArgs, choice: LogDesignChoice): LogComparison {
  // Each comparison starts from the logs' own partitions: a partition's design key is the comparison's.
  const partitions = args.logs.partitions.map(({ design: _, ...p }) => ({ ...p }));
  if (choice.design === undefined) return { partitions, choice: {} };
  const designs = args.designs ?? [];
  const design = designs.find((d) => d.label === choice.design);
  if (!design)
    throw new InputError(
      `no design '${clip(choice.design)}' in this workspace${designs.length ? `; there are ${listNames(designs.map((d) => d.label))}` : ""}`,
    );
  const tables = comparableTables(design.text, args.analysis);
  if (choice.table !== undefined && !tables.includes(choice.table))
    throw new InputError(`${design.label} has no table '${clip(choice.table)}' with a PartitionKey; it has ${listNames(tables)}`);
  const scale = choice.scale === undefined || choice.scale.trim() === "" ? undefined : Number(choice.scale);
  if (scale !== undefined && !(Number.isFinite(scale) && scale > 0))
    throw new InputError(`the scale must be a positive number such as 0.0063, not '${clip(choice.scale!, 40)}'`);
  const logs = { ...args.logs, partitions };
  const compared = compareWithDesign(logs, design.text, design.label, { analysis: args.analysis, designTable: choice.table, scale });
  return {
    partitions,
    design: compared,
    choice: {
      design: design.label,
      ...(choice.table !== undefined ? { table: choice.table } : {}),
      ...(scale !== undefined ? { scale: choice.scale!.trim() } : {}),
    },
  };
}

/**
 * Fills the silence between traffic seconds: `tick(now)` returns the empty
 * second to send for the second that ended more than a second ago, when
 * no traffic was sent for it (the recorder writes a second out up to a
 * quarter of a second after it ends; one more second of margin keeps an
 * empty second from overtaking it — and the page adds up duplicates anyway).
 */
export class IdleSeconds {
  private last = 0;

  /** Notes a second of traffic that was sent. */
  sent(t: number): void {
    if (t > this.last) this.last = t;
  }

  tick(now: number): TrafficSecond | undefined {
    const t = now - (now % 1000) - 2000;
    if (t <= this.last) return undefined;
    this.last = t;
    return { t, partitions: {} };
  }
}
