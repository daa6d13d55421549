/**
 * A TCP proxy on a loopback port between a client and a real Azurite, which
 * a test controls to inject real network faults: take the endpoint down
 * (the port is closed, every connection is cut: clients see "connection
 * refused") and bring it back on the same port, or stall it (connections
 * stay open, bytes are held — in both directions or only the answers —
 * until it resumes).
 */
import { connect, createServer, Server, Socket } from "node:net";

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Bytes held while stalled, in arrival order, with where they go. */
  held: Array<{ to: Socket; data: Buffer }>;
}

export type StallMode = "both" | "answers";

export class FaultProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private stalled: StallMode | undefined;
  /** Connections accepted so far (a test can wait for traffic). */
  accepted = 0;

  /** The loopback port, the same for the proxy's whole life (also after `down` and `up`). */
  port = 0;

  private constructor(private readonly upstreamPort: number) {}

  /** Starts a proxy to `upstreamPort` on a free loopback port. */
  static async start(upstreamPort: number): Promise<FaultProxy> {
    const proxy = new FaultProxy(upstreamPort);
    proxy.port = await proxy.listen(0);
    return proxy;
  }

  /** The table endpoint through the proxy. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}/devstoreaccount1`;
  }

  /** `connectionString` (Azurite's) pointed at the proxy instead. */
  connectionString(connectionString: string, azuriteEndpoint: string): string {
    return connectionString.replace(azuriteEndpoint, this.endpoint);
  }

  /** Closes the port and cuts every connection: until `up`, connecting fails with ECONNREFUSED. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    this.pairs.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again on the same port. */
  async up(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  /** Down for `ms`, then up again; resolves once it is back. */
  async downFor(ms: number): Promise<void> {
    await this.down();
    await new Promise((r) => setTimeout(r, ms));
    await this.up();
  }

  /** Holds bytes from now on: `answers` holds only what Azurite sends back (requests still arrive). */
  stall(mode: StallMode = "both"): void {
    this.stalled = mode;
  }

  /** Delivers everything held, in order, and forwards as usual again. */
  resume(): void {
    this.stalled = undefined;
    for (const p of this.pairs) {
      for (const { to, data } of p.held.splice(0)) if (!to.destroyed) to.write(data);
    }
  }

  /** Connections open through the proxy right now. */
  get openConnections(): number {
    return this.pairs.size;
  }

  /** Bytes held right now (a test can wait until a request is stuck). */
  get heldBytes(): number {
    let n = 0;
    for (const p of this.pairs) for (const h of p.held) n += h.data.length;
    return n;
  }

  async close(): Promise<void> {
    await this.down();
  }

  private listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((s) => this.accept(s));
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        this.server = server;
        resolve((server.address() as { port: number }).port);
      });
    });
  }

  private accept(client: Socket): void {
    this.accepted++;
    const upstream = connect(this.upstreamPort, "127.0.0.1");
    const pair: Pair = { client, upstream, held: [] };
    this.pairs.add(pair);
    const forward = (from: Socket, to: Socket, isAnswer: boolean) =>
      from.on("data", (data: Buffer) => {
        const hold = this.stalled === "both" || (this.stalled === "answers" && isAnswer);
        if (hold) pair.held.push({ to, data });
        else to.write(data);
      });
    forward(client, upstream, false);
    forward(upstream, client, true);
    const done = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    for (const s of [client, upstream]) s.on("error", done).on("close", done);
  }
}
