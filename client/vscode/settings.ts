/**
 * The `tableDesign` settings as the extension reads them: typed, with the
 * registry's defaults and checks (protocol/settings.ts), never a string key
 * and a default restated at the call. The analysis options go through the
 * core's `resolveOptions()` — the same reading as the language server's — so
 * that live-data checks and stress tests analyse a design as the editor does.
 */
import * as vscode from "vscode";
import type { AnalysisOptions } from "@core";
import { analysisSettings, checkSetting, SECTION, type SettingName, type SettingValue } from "@protocol/settings";

/** A setting's current value: the user's, or its default when unset or unusable (the unusable one logged when `log` is given). */
export function setting<N extends SettingName>(name: N, log?: (line: string) => void): SettingValue<N> {
  const { value, problem } = checkSetting(name, vscode.workspace.getConfiguration(SECTION).get(name));
  if (problem) log?.(`setting ignored: ${problem}`);
  return value;
}

/** The whole section, as the language server receives it at its start (it reads it with `sectionValue`). */
export function settingsSection(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/** The analysis options from the settings, as the language server reads them. */
export function analysisOptions(log?: (line: string) => void): AnalysisOptions {
  const config = vscode.workspace.getConfiguration(SECTION);
  const { options, problems } = analysisSettings((name) => config.get(name));
  for (const p of problems) log?.(`setting ignored: ${p}`);
  return options;
}
