/**
 * "Check against live data": samples the live table named like a design's
 * table through the current connection and reports what breaks the design
 * as diagnostics in the design file.
 */
import * as vscode from "vscode";
import { AccountSession, checkLiveData, liveSummary, sampleTable, sessionReader } from "@runtime";
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
    // A sample spread over the key space, not the first page: the first page is one corner of the table.
    const sample = await sampleTable(sessionReader(session, table), { sample: SAMPLE });
    const check = checkLiveData(doc.getText(), table, sample.entities, analysisOptions());
    const { findings } = check;
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
    const summary = `${liveSummary(check, table)} (${session.connection.name})`;
    if (findings.some((f) => f.severity === "warning" || f.severity === "error")) vscode.window.showWarningMessage(summary);
    else vscode.window.showInformationMessage(summary);
  }

  dispose(): void {
    this.diagnostics.dispose();
  }
}
