import { odata } from "@azure/data-tables";
import { Repository } from "./base";

export type OrderStatus = "open" | "paid" | "shipped" | "cancelled";

export interface Order {
  customerId: string;
  number: number;
  status: OrderStatus;
  total: number;
  placedAt: Date;
}

export class OrderRepository extends Repository<Omit<Order, "customerId" | "number">> {
  constructor() {
    super("orders");
  }

  async place(order: Order): Promise<void> {
    await this.client.createEntity({
      partitionKey: order.customerId,
      rowKey: `${order.number}`, // expect: ts/unpadded-number
      status: order.status,
      total: order.total,
      placedAt: order.placedAt,
    });
  }

  async get(customerId: string, number: number) {
    return this.client.getEntity(customerId, String(number).padStart(10, "0")); // query: point
  }

  async ofCustomer(customerId: string, from?: number) {
    const filter = from === undefined
      ? odata`PartitionKey eq ${customerId}`
      : odata`PartitionKey eq ${customerId} and RowKey ge ${String(from).padStart(10, "0")}`;
    return this.all(filter);
  }

  async twoCustomers(a: string, b: string) {
    const out = [];
    // One query for two customers: 'or' across partition keys reads every partition.
    for await (const e of this.client.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${a} or PartitionKey eq ${b}` } })) out.push(e); // expect: ts/table-scan // query: table-scan
    return out;
  }

  async byStatus(status: OrderStatus, customerId?: string) {
    const out = [];
    const filter = customerId ? odata`PartitionKey eq ${customerId} and status eq ${status}` : odata`status eq ${status}`;
    for await (const e of this.client.listEntities({ queryOptions: { filter } })) out.push(e); // expect: ts/table-scan // query: table-scan
    return out;
  }

  async bigSpenders(min: number) {
    // A typo the service would answer with 400 Bad Request.
    const filter = `PartitionKey ne '' and total gte ${min}`; // expect: ts/filter-syntax
    return this.client.listEntities({ queryOptions: { filter } });
  }

  async markPaid(customerId: string, number: number) {
    const rowKey = String(number).padStart(10, "0");
    const order = await this.client.getEntity<{ status: OrderStatus }>(customerId, rowKey); // query: point
    if (order.status !== "open") return false;
    await this.client.updateEntity({ partitionKey: customerId, rowKey, status: "paid" }, "Merge", { etag: order.etag });
    return true;
  }

  async cancel(customerId: string, number: number) {
    const rowKey = String(number).padStart(10, "0");
    const order = await this.client.getEntity<{ status: OrderStatus }>(customerId, rowKey); // expect: ts/read-before-write // query: point
    if (order.status === "shipped") throw new Error("already shipped");
    await this.client.updateEntity({ partitionKey: customerId, rowKey, status: "cancelled" }, "Merge");
  }
}
