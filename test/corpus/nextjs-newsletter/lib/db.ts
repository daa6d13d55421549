import { AzureNamedKeyCredential, TableClient, odata } from "@azure/data-tables";

export interface Subscriber {
  partitionKey: string;
  rowKey: string;
  confirmed: boolean;
  token: string;
  subscribedAt: string;
}

/** Storage for the newsletter: one table of subscribers, one of sent issues. */
export class NewsletterStore {
  private readonly subscribers: TableClient;
  private readonly issues: TableClient;

  constructor(account = process.env.STORAGE_ACCOUNT ?? "devstoreaccount1", key = process.env.STORAGE_KEY ?? "") {
    const credential = new AzureNamedKeyCredential(account, key);
    this.subscribers = new TableClient(`https://${account}.table.core.windows.net`, "subscribers", credential);
    this.issues = new TableClient(`https://${account}.table.core.windows.net`, "issues", credential);
  }

  async add(email: string, token: string): Promise<void> {
    await this.subscribers.createEntity<Subscriber>({
      partitionKey: "subscribers", // expect: ts/constant-partition-key
      rowKey: email.toLowerCase(),
      confirmed: false,
      token,
      subscribedAt: new Date().toISOString(),
    });
  }

  async confirm(email: string, token: string): Promise<boolean> {
    const entity = await this.subscribers.getEntity<Subscriber>("subscribers", email.toLowerCase()); // query: point
    if (entity.token !== token) return false;
    // Optimistic concurrency: the write fails if someone changed the entity since the read.
    await this.subscribers.updateEntity({ ...entity, confirmed: true }, "Merge", { etag: entity.etag });
    return true;
  }

  async unsubscribe(email: string): Promise<void> {
    await this.subscribers.deleteEntity("subscribers", email.toLowerCase());
  }

  async confirmed(): Promise<Subscriber[]> {
    const out: Subscriber[] = [];
    const pages = this.subscribers.listEntities<Subscriber>({ queryOptions: { filter: odata`PartitionKey eq 'subscribers' and confirmed eq true` } }); // query: row-range
    for await (const s of pages) out.push(s);
    return out;
  }

  async recordIssue(issue: number, subject: string): Promise<void> {
    const year = new Date().getUTCFullYear(); // expect: ts/append-only-key
    await this.issues.upsertEntity({ partitionKey: String(year), rowKey: String(issue).padStart(5, "0"), subject }, "Replace");
  }

  async issuesOf(year: number) {
    const filter = `PartitionKey eq '${year}'`;
    return this.issues.listEntities({ queryOptions: { filter } }); // query: row-range
  }
}

export const store = new NewsletterStore();
