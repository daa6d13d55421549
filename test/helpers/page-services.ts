/**
 * Serves a page's host module (client/pages/<view>.ts) as the
 * extension's panel does, with the services a test gives it: what the
 * browser and unit tests serve is exactly what the panel serves. A service
 * the test did not give fails loudly when the page uses it.
 */
import type { ViewName } from "@protocol/pages";
import type { ViewSpec } from "@client/webview-host/host";
import { HostPage, PageServices, Served, viewSpec } from "@client/pages/host-page";

/** `services` with every missing member throwing when a page reaches for it. */
export function pageServices(services: Partial<PageServices>): PageServices {
  return new Proxy(services as PageServices, {
    get(target, name: string) {
      if (name in target) return target[name as keyof PageServices];
      throw new Error(`the test gives the page no '${name}' service`);
    },
  });
}

/** The spec a panel of `page` serves with `args`, and the service behind it (dispose it when done: it may hold a timer). */
export function servePage<V extends ViewName, A>(
  page: HostPage<V, A>,
  services: Partial<PageServices>,
  args: A,
  emit: Parameters<HostPage<V, A>["serve"]>[1] = () => undefined,
): { spec: ViewSpec<V>; served: Served<V> } {
  const served = page.serve(pageServices(services), emit, args);
  return { spec: viewSpec(page, served), served };
}
