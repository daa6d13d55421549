/**
 * The table explorer's host: its controller (client/explorer/) answers the
 * page's requests with the account layer; the panel connects on open and is
 * restored after a reload. Its command, with nothing stored to connect to,
 * starts the embedded emulator and connects to it: the zero-setup answer.
 */
import { ExplorerController } from "../explorer/controller";
import { EXPLORER_SHAPES } from "../explorer/shapes";
import { hostPage, type PageServices } from "./host-page";

/**
 * The controller of the panel served last, by the extension's shared
 * `active` holder: the page's command uses it; the other commands see only
 * its connection.
 */
const serving = new WeakMap<PageServices["active"], ExplorerController>();

export default hostPage({
  view: "explorer",
  retain: true,
  single: true,
  shapes: EXPLORER_SHAPES,
  serve(services, emit) {
    const controller = new ExplorerController(services.store, services.ui, emit);
    serving.set(services.active, controller);
    services.active.connection = controller.connection;
    // Connect at once to the running emulator or the connection used last: the page's start state (or an event) carries it.
    void controller.open();
    const spec = controller.view();
    return {
      handlers: spec.handlers,
      state: spec.state,
      dispose: () => {
        controller.dispose();
        if (serving.get(services.active) === controller) {
          serving.delete(services.active);
          services.active.connection = undefined;
        }
      },
    };
  },
  async command(services, open) {
    open();
    if (!services.store.list().length) await serving.get(services.active)?.handle("connect.emulator", {});
  },
});
