/// <reference lib="dom" />
/**
 * `npm run screenshots`: the README's walkthrough, taken in a real VS Code
 * (code-server) with the built extension — a newcomer's design written,
 * fixed, checked against code and stress-tested — each step saved as a
 * picture in docs/walkthrough/. Not a test (the e2e tier asserts the same
 * behaviours); it fails loudly when a step does not show what the README
 * says it shows, so the pictures never drift from the product.
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { goTo, makeWorkspace, openFile, openVsCode, quickFix, runCommand, waitForLine, webviewWith } from "../helpers/vscode";

const OUT = path.resolve("docs/walkthrough");

/** The design a newcomer writes first: orders keyed by their day. */
export const ORDERS = `service azure-table

// Orders, keyed by the day they were placed: the first idea most of us have.
table Orders {
  OrderId:    guid
  CustomerId: string(12) distinct 100K
  OrderDate:  datetime increasing
  Total:      double

  partitionKey = date(OrderDate, "yyyyMMdd")
  rowKey       = OrderId

  rows 50M
  insert PlaceOrder 500/s
  query ByDay 5/s where OrderDate between ? returns 1500
}
`;

/** The code a newcomer writes against it. */
export const PLACE_ORDER = `import { TableClient } from "@azure/data-tables";

const orders = TableClient.fromConnectionString(process.env.STORAGE ?? "", "Orders");

export async function placeOrder(id: string, customerId: string, total: number) {
  await orders.createEntity({
    partitionKey: new Date().toISOString().slice(0, 10),
    rowKey: id,
    customerId,
    total,
  });
}
`;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const vscode = await openVsCode(await makeWorkspace({ "orders.tdl": ORDERS, "place-order.ts": PLACE_ORDER }));
  const { page } = vscode;
  const shot = (name: string) => page.screenshot({ path: path.join(OUT, `${name}.png`) });
  try {
    // 1. Write: the design's findings as squiggles, one of them hovered.
    await openFile(page, "orders.tdl");
    await page.locator(".squiggly-warning").first().waitFor({ timeout: 60_000 });
    await goTo(page, 10, 18);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    await page.locator(".monaco-hover", { hasText: "append-only" }).first().waitFor({ timeout: 15_000 });
    await shot("1-write");
    await page.keyboard.press("Escape");

    // 2. Fix: the quick fixes, each checked against the design before it is offered.
    await goTo(page, 10, 18);
    await quickFix(page, "bucket");
    await shot("2-fix");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () => [...document.querySelectorAll(".view-line")].some((l) => /bucket\(/.test(l.textContent ?? "")),
      undefined,
      {
        timeout: 15_000,
      },
    );
    await shot("3-fixed");

    // 3. Check code: the clock as a partition key, in TypeScript.
    await openFile(page, "place-order.ts");
    await page.locator(".squiggly-warning, .squiggly-error").first().waitFor({ timeout: 90_000 });
    await goTo(page, 7, 19);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    await page.locator(".monaco-hover", { hasText: "clock" }).first().waitFor({ timeout: 15_000 });
    await shot("4-code");
    await page.keyboard.press("Escape");

    // 4. Stress: the first design's own access patterns on the embedded emulator beside its quick fix's.
    await openFile(page, "orders.tdl");
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Z");
    await waitForLine(page, 'partitionKey = date(OrderDate, "yyyyMMdd")');
    await runCommand(page, "Table Design: Run a Partition Stress Test…");
    for (const text of ["Orders", "design"]) {
      await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first().waitFor({ timeout: 15_000 });
      await page.locator(".quick-input-widget input").fill(text);
      await page.keyboard.press("Enter");
    }
    await page.locator(".quick-input-widget input").fill("10");
    await page.keyboard.press("Enter");
    // The design and its quick fix side by side, when the design still has one.
    const compare = page.locator(".quick-input-list .monaco-list-row", { hasText: "Compare with the quick fix" }).first();
    if (
      await compare.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      )
    ) {
      await page.locator(".quick-input-widget input").fill("Compare");
      await page.keyboard.press("Enter");
    }
    const report = await webviewWith(page, ".run .verdict", 120_000);
    await report.locator(".run canvas").first().waitFor();
    await shot("5-stress");
    console.log(`walkthrough: 5 pictures in ${path.relative(process.cwd(), OUT)}/`);
  } finally {
    await vscode.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
