/** The table explorer page (app.ts). */
import { definePage } from "../page";
import { ExplorerApp } from "./app";

export default definePage("explorer", ({ client, root, state }) => {
  new ExplorerApp(client, root, state);
});
