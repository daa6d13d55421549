/**
 * One host for every page, free of `vscode`: the ready handshake (the page
 * says `ready`, the host answers `init` with the view's current state),
 * requests routed through a handler table the compiler checks against
 * `Views`, events pushed while the page listens, and disposal.
 *
 * The page is not trusted. Before a handler runs, the host checks the
 * envelope (type, id, method), the request's size and depth, that the
 * method is one of the view's own (never an inherited name such as
 * `constructor`), and the params against the method's declared shape.
 * Anything else gets an error answer (when it has an id to answer) and a
 * log line that names the rule broken, never the payload.
 */
import { EventOf, HostToWebview, LIMITS, MethodOf, ParamsOf, ResultOf, StateOf, ViewName } from "@protocol/pages";
import { describeName, Fields, isPlainObject, object, ShapeError } from "./shape";
import { measure } from "./measure";
import { redact } from "@runtime";
import { describeError, kindOf, stackOf } from "@core/errors";
import { clip, formatCount } from "@core/text/words";

/** One function per request of view `V`; a missing one is a compile error. */
export type Handlers<V extends ViewName> = { [M in MethodOf<V>]: (params: ParamsOf<V, M>) => Promise<ResultOf<V, M>> };

/** The declared shape of each request's params. */
export type Shapes<V extends ViewName> = { [M in MethodOf<V>]: Fields<ParamsOf<V, M>> };

/** Everything the host needs to serve one page. */
export interface ViewSpec<V extends ViewName> {
  view: V;
  shapes: Shapes<V>;
  handlers: Handlers<V>;
  /** The page's start state, read at every handshake (a reloaded page gets the current one). */
  state(): StateOf<V>;
}

/** The two directions of a webview: VS Code's `WebviewPanel`, or the browser test harness. */
export interface PageChannel {
  post(message: HostToWebview): unknown;
  onMessage(listener: (message: unknown) => void): { dispose(): void };
}

export type Limits = typeof LIMITS;

type AnyHandler = (params: unknown) => Promise<unknown>;

export class WebviewHost<V extends ViewName> {
  private ready = false;
  private closed = false;
  private refusals = 0;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly subscription: { dispose(): void };
  private readonly checks = new Map<string, (value: unknown, path: string) => unknown>();

  constructor(
    private readonly spec: ViewSpec<V>,
    private readonly channel: PageChannel,
    private readonly log: (line: string) => void,
    private readonly limits: Limits = LIMITS,
  ) {
    for (const method of Object.keys(spec.shapes)) {
      this.checks.set(method, object((spec.shapes as Record<string, Fields<object>>)[method]) as (value: unknown, path: string) => unknown);
    }
    this.subscription = channel.onMessage((message) => this.receive(message));
  }

  get disposed(): boolean {
    return this.closed;
  }

  /** Pushes an event to the page; dropped until the page is ready (its `init` state covers what came before) and after disposal. */
  emit(event: EventOf<V>): void {
    if (this.ready && !this.closed) this.post({ type: "event", event });
  }

  /** Stops listening; answers still being computed are dropped. */
  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription.dispose();
  }

  /** Resolves once every request received so far has been answered (or dropped). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight.values()]);
  }

  /** Handles one message from the page; never throws. */
  receive(message: unknown): void {
    if (this.closed) {
      this.log(`[${this.spec.view}] message after the panel was closed: ignored`);
      return;
    }
    if (!isPlainObject(message)) return this.refuse(undefined, "?", "the message is not an object");
    const type = Object.hasOwn(message, "type") ? message.type : undefined;
    if (type === "ready") return this.handshake(message);
    if (type !== "request")
      return this.refuse(
        undefined,
        "?",
        `unknown message type ${typeof type === "string" ? `'${describeName(type)}'` : `(${typeof type})`}`,
      );
    const id = Object.hasOwn(message, "id") ? message.id : undefined;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return this.refuse(undefined, "?", "the request has no valid id");
    const method = Object.hasOwn(message, "method") ? message.method : undefined;
    if (typeof method !== "string" || method.length > this.limits.method)
      return this.refuse(id, "?", "the request has no valid method name");
    const extra = extraKey(message, REQUEST_FIELDS);
    if (extra !== undefined) return this.refuse(id, method, `the request has an unknown field '${describeName(extra)}'`);
    // Own methods only: `constructor`, `__proto__`, `toString`… exist on every object but are no request.
    const check = this.checks.get(method);
    const handler = Object.hasOwn(this.spec.handlers, method) ? (this.spec.handlers as Record<string, AnyHandler>)[method] : undefined;
    if (!check || typeof handler !== "function")
      return this.refuse(id, method, `unknown request '${describeName(method)}' for the ${this.spec.view} page`);
    if (!this.ready) return this.refuse(id, method, "the page has not said it is ready");
    if (this.inFlight.has(id)) return this.refuse(id, method, `request id ${id} is already in use`);
    if (this.inFlight.size >= this.limits.inFlight) return this.refuse(id, method, `more than ${this.limits.inFlight} requests at once`);
    const params = Object.hasOwn(message, "params") ? message.params : undefined;
    const size = measure(params, this.limits.requestChars, this.limits.depth);
    if (size !== "ok")
      return this.refuse(
        id,
        method,
        size === "too deep"
          ? `params nest deeper than ${this.limits.depth} levels`
          : `params are larger than ${formatCount(this.limits.requestChars)} characters`,
      );
    let checked: unknown;
    try {
      checked = check(params, "params");
    } catch (e) {
      if (e instanceof ShapeError) return this.refuse(id, method, e.message);
      return this.refuse(id, method, "params could not be read");
    }
    this.run(id, method, handler, checked);
  }

  private handshake(message: Record<string, unknown>): void {
    const extra = extraKey(message, ["type"]);
    if (extra !== undefined) return this.refuse(undefined, "ready", `the ready message has an unknown field '${describeName(extra)}'`);
    let state: StateOf<V>;
    try {
      state = this.spec.state();
    } catch (e) {
      this.log(`[${this.spec.view}] could not build the page's state: ${(e as Error)?.stack ?? String(e)}`);
      return;
    }
    this.ready = true;
    this.post({ type: "init", view: this.spec.view, state });
  }

  private run(id: number, method: string, handler: AnyHandler, params: unknown): void {
    const done = (async () => {
      try {
        const result = await handler.call(this.spec.handlers, params);
        if (!this.closed) this.post({ type: "response", id, ok: true, result: result === undefined ? null : result });
      } catch (e) {
        const kind = kindOf(e);
        const message = describeError(e);
        // A bug deserves its stack in the log, and the page says where it is; a refused write or a network failure does not.
        this.log(`[${this.spec.view}] ${method} failed: ${kind === "internal" ? stackOf(e) : message}`);
        // Details (the service's own answer) go to the page behind a toggle, redacted again in case a handler forgot.
        const details = (e as { details?: unknown; detail?: unknown } | undefined)?.details ?? (e as { detail?: unknown })?.detail;
        if (!this.closed) {
          this.post({
            type: "response",
            id,
            ok: false,
            kind,
            error: clip(redact(message), this.limits.errorChars),
            ...(typeof details === "string" && details ? { details: clip(redact(details), this.limits.detailChars) } : {}),
          });
        }
      } finally {
        this.inFlight.delete(id);
      }
    })();
    this.inFlight.set(id, done);
  }

  private refuse(id: number | undefined, method: string, reason: string): void {
    // A page stuck in a loop must not flood the log: the first 100 refusals, then one in 1,000 with the count.
    this.refusals++;
    if (this.refusals <= 100 || this.refusals % 1000 === 0) {
      const count = this.refusals > 100 ? ` (${formatCount(this.refusals)} refused so far)` : "";
      this.log(
        `[${this.spec.view}] refused ${id === undefined ? "a message" : `request ${id}`}${method === "?" ? "" : ` (${describeName(method)})`}: ${reason}${count}`,
      );
    }
    if (id !== undefined && !this.closed) this.post({ type: "response", id, ok: false, kind: "usage", error: `refused: ${reason}` });
  }

  private post(message: HostToWebview<V>): void {
    try {
      const sent = this.channel.post(message as HostToWebview);
      if (sent && typeof (sent as PromiseLike<unknown>).then === "function") {
        (sent as PromiseLike<unknown>).then(undefined, (e: unknown) =>
          this.log(`[${this.spec.view}] could not post to the page: ${(e as Error)?.message ?? e}`),
        );
      }
    } catch (e) {
      this.log(`[${this.spec.view}] could not post to the page: ${(e as Error)?.message ?? e}`);
    }
  }
}

const REQUEST_FIELDS = ["type", "id", "method", "params"];

/** The first own key not in `allowed`; for…in stops there, where Object.keys would list a huge envelope first. */
function extraKey(message: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  for (const k in message) if (Object.hasOwn(message, k) && !allowed.includes(k)) return k;
  return undefined;
}
