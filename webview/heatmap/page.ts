/**
 * The key-space heatmap page (app.ts): live, fed one `traffic` event a
 * second; or a heatmap of a service's logs, its span shown whole, with the
 * lists below it (logs.ts).
 */
import { definePage } from "../page";
import { Heatmap } from "./app";
import { logLists, logsSummary } from "./logs";
import { designPicker } from "./design-picker";

export default definePage("heatmap", ({ client, root, state, showProblem }) => {
  const logs = state.logs;
  if (logs) {
    const first = state.seconds[0]?.t ?? 0;
    const last = state.seconds[state.seconds.length - 1]?.t ?? first;
    const span = { bucketMs: logs.bucketMs, bucketName: logs.bucketName, first, last, title: logs.title, summary: logsSummary(logs) };
    new Heatmap(root, state.seconds, undefined, span);
    let lists = logLists(logs);
    const picker = designPicker(
      logs,
      (choice) =>
        client.request("heatmap.compare", choice).catch((e: unknown) => {
          showProblem(e);
          throw e;
        }),
      (answer) => {
        const next = logLists({ ...logs, partitions: answer.partitions, design: answer.design, choice: answer.choice });
        lists.replaceWith(next);
        lists = next;
      },
    );
    if (picker) root.append(picker);
    root.append(lists);
    return;
  }
  const heatmap = new Heatmap(root, state.seconds, state.now);
  client.onEvent((e) => heatmap.add(e.second));
});
