/**
 * The analysis options from the `tableDesign` settings, read through the
 * core's `resolveOptions()` — the same reading as the language server's — so
 * that live-data checks and stress tests analyse a design as the editor does.
 */
import * as vscode from "vscode";
import { AnalysisOptions, resolveOptions } from "@core";

export function analysisOptions(log?: (line: string) => void): AnalysisOptions {
  const config = vscode.workspace.getConfiguration("tableDesign");
  const { options, problems } = resolveOptions(
    {
      service: config.get("service"),
      partitionTargetEntitiesPerSecond: config.get("partitionTargetEntitiesPerSecond"),
      rules: config.get("rules"),
    },
    { service: "tableDesign.service", target: "tableDesign.partitionTargetEntitiesPerSecond", rules: "tableDesign.rules" },
  );
  for (const p of problems) log?.(`setting ignored: ${p}`);
  return options;
}
