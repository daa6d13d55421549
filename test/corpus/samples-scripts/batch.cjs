// Walkthrough script: one transaction of three actions in one partition, and one that mixes partitions.
const { TableClient, TableTransaction } = require("@azure/data-tables");

async function main() {
  const client = TableClient.fromConnectionString(process.env.CONNECTION_STRING || "UseDevelopmentStorage=true", "inventory");
  const tx = new TableTransaction();
  tx.createEntity({ partitionKey: "shelf-1", rowKey: "001", count: 4 }); // expect: ts/constant-partition-key
  tx.createEntity({ partitionKey: "shelf-1", rowKey: "002", count: 9 });
  tx.upsertEntity({ partitionKey: "shelf-1", rowKey: "003", count: 1 }, "Replace");
  await client.submitTransaction(tx.actions);

  const mixed = [
    ["create", { partitionKey: "shelf-1", rowKey: "004" }],
    ["create", { partitionKey: "shelf-2", rowKey: "001" }],
  ];
  await client.submitTransaction(mixed); // expect: ts/cross-partition-transaction
}

main();
