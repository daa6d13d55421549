/** The key-space heatmap page (app.ts), fed one `traffic` event a second. */
import { definePage } from "../page";
import { Heatmap } from "./app";

export default definePage("heatmap", ({ client, root, state }) => {
  const heatmap = new Heatmap(root, state.seconds, state.now);
  client.onEvent((e) => heatmap.add(e.second));
});
