import { Repository } from "./base";

interface AuditEntry { action: string; actor: string }

/** An audit trail per day. */
export class AuditRepository extends Repository<AuditEntry> {
  constructor() {
    super("audit");
  }

  async record(actor: string, action: string, seq: number): Promise<void> {
    const day = new Date().toISOString().split("T")[0]; // expect: ts/append-only-key
    await this.client.createEntity({ partitionKey: day, rowKey: `${actor}-${seq}`, actor, action }); // expect: ts/unpadded-number
  }

  async today() {
    return this.all(`PartitionKey eq '${new Date().toISOString().split("T")[0]}'`);
  }
}
