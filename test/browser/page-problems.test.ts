/**
 * How a page shows a failure, in real Chromium over the real host: the
 * error vocabulary (core/errors.ts) crosses the protocol with its kind, and
 * every page shows it alike (webview/problem.ts) — a sentence, the details
 * behind a toggle, a warning for what the user can act on, an error for
 * what is unavailable, and for a bug where its stack is. Driven through the
 * stress report's "Open the key-space heatmap" button, which had no error
 * display at all: its failure was dropped.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { RefusedError, UnavailableError } from "@core/errors";
import report from "@client/pages/report";
import { Harness, openHarness } from "../helpers/webview-harness";
import { servePage } from "../helpers/page-services";
import { designAndFix } from "./report-runs";

let harness: Harness<"report">;
/** What the next press of the button fails with. */
let failure: unknown;

before(async () => {
  const runs = designAndFix().map((r) => ({ ...r, report: { ...r.report, target: "emulator" as const } }));
  harness = await openHarness(
    servePage(
      report,
      {
        execute: async () => {
          throw failure;
        },
      },
      { title: "Stress test", runs },
    ).spec,
  );
  await harness.page.locator(".run").first().waitFor();
});
after(async () => harness?.close());

/** Presses the button and returns the page's problem area once it shows `text`. */
async function press(text: string) {
  const { page } = harness;
  await page.locator("button.open-heatmap").click();
  const area = page.locator(".page-problem");
  await area.locator(".error-message", { hasText: text }).waitFor();
  return area;
}

test("an emulator that cannot start: an error with its sentence, the cause behind Details", async () => {
  failure = new UnavailableError("could not start the table emulator: port 10002 is in use", "Error: listen EADDRINUSE 127.0.0.1:10002");
  const area = await press("Could not start the table emulator");
  assert.equal(await area.getAttribute("data-severity"), "error");
  assert.equal(await area.getAttribute("data-kind"), "unavailable");
  assert.equal(await area.locator(".error-message").innerText(), "Could not start the table emulator: port 10002 is in use.");
  assert.ok(!(await area.locator(".error-details pre").isVisible()), "the cause is folded away");
  await area.locator(".error-details summary").click();
  assert.equal(await area.locator(".error-details pre").innerText(), "Error: listen EADDRINUSE 127.0.0.1:10002");
});

test("a refusal is a warning; a bug says where its stack is, and its stack stays on the host", async () => {
  failure = new RefusedError("the heatmap is open in another window");
  const refused = await press("The heatmap is open in another window.");
  assert.equal(await refused.getAttribute("data-severity"), "warning");
  assert.equal(await refused.locator(".error-details").count(), 0);

  failure = new TypeError("cannot read properties of undefined (reading 'recentTraffic')");
  const bug = await press("Cannot read properties of undefined");
  assert.equal(await bug.getAttribute("data-severity"), "error");
  assert.equal(await bug.getAttribute("data-kind"), "internal");
  assert.equal(
    await bug.locator(".error-message").innerText(),
    "Cannot read properties of undefined (reading 'recentTraffic'). This is a bug: the details are in the Table Design output channel.",
  );
  // One area, reused: the page shows the latest problem only.
  assert.equal(await harness.page.locator(".page-problem").count(), 1);
  assert.match(harness.logs.at(-1)!, /^\[report\] heatmap\.open failed: TypeError: cannot read properties.*\n\s+at /);
  const answers = harness.sent.filter((m) => m.type === "response" && !m.ok);
  assert.ok(
    answers.every((m) => !JSON.stringify(m).includes("    at ")),
    "no stack reaches the page",
  );
});
