/**
 * "Check against live data": samples the live table named like a design's
 * table through the current connection and reports what breaks the design
 * as diagnostics in the design file.
 */
import * as vscode from "vscode";
import { AccountSession, checkLiveData } from "@runtime";
import { analysisOptions } from "../vscode/settings";

const SAMPLE = 1000;

export class LiveDataChecker implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection("tdl-live");

  constructor(private readonly session: () => Promise<AccountSession | undefined>) {}

  async check(uri: string, table: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    const session = await this.session();
    if (!session) {
      vscode.window.showWarningMessage("Connect to an account (or start the emulator) to check a design against live data.");
      return;
    }
    const tables = await session.listTables();
    if (!tables.includes(table)) {
      vscode.window.showWarningMessage(`${session.connection.name} has no table '${table}' (it has ${tables.join(", ") || "none"}).`);
      return;
    }
    const page = await session.page(table, { pageSize: SAMPLE });
    const { findings, sampled } = checkLiveData(doc.getText(), table, page.entities, analysisOptions());
    const severity = {
      error: vscode.DiagnosticSeverity.Error,
      warning: vscode.DiagnosticSeverity.Warning,
      info: vscode.DiagnosticSeverity.Information,
      hint: vscode.DiagnosticSeverity.Hint,
    };
    this.diagnostics.set(
      doc.uri,
      findings.map((f) => {
        const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(f.start), doc.positionAt(f.end)), f.message, severity[f.severity]);
        d.code = f.code;
        d.source = "tdl live data";
        return d;
      }),
    );
    vscode.window.showInformationMessage(
      `Sampled ${sampled} entities of '${table}' on ${session.connection.name}: ${findings.length ? `${findings.length} finding${findings.length === 1 ? "" : "s"} in the Problems panel` : "the live data fits the design"}.`,
    );
  }

  dispose(): void {
    this.diagnostics.dispose();
  }
}
