/**
 * The design the log-heatmap tests read their logs against: 8 shops, each a
 * partition (`partitionKey = Shop`), with the access patterns a test gives.
 */
export function shopsDesign(accesses: string): string {
  return `service azure-table
table Orders {
  Shop: string(8) charset "a-z" distinct 8
  Id:   string(12) charset "0-9a-f" unique
  partitionKey = Shop
  rowKey = Id
  rows 10K
  entitySize 1KB
${accesses}
}
`;
}
