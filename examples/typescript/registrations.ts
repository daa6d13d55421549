// Writing race registrations from application code: the keys of the
// marathon design (../marathon.tdl), built here by hand. The language server
// checks how they are built; one of them is left unpadded on purpose.
import { odata, TableClient, TableTransaction } from "@azure/data-tables";

const registrations = TableClient.fromConnectionString(process.env.TABLES_CONNECTION ?? "UseDevelopmentStorage=true", "Registrations");

export interface Registration {
  event: string;
  distance: "Full" | "Half" | "TenK";
  bib: number;
  name: string;
  gender: "M" | "F";
  age: number;
}

/** partitionKey = Event + "__" + Distance */
const partitionOf = (event: string, distance: string) => `${event}__${distance}`;

export async function register(r: Registration): Promise<void> {
  const age = String(r.age).padStart(3, "0");
  const bib = String(r.bib).padStart(5, "0");
  // The dual-row pattern: the "BIB:" row and the "AGE:" index row in one entity group transaction.
  const tx = new TableTransaction();
  tx.createEntity({
    partitionKey: partitionOf(r.event, r.distance),
    // The bib is a number: unpadded, "BIB:111" would sort before "BIB:2". The
    // quick fix pads it to 5 digits, the width the design declares for Bib.
    rowKey: `BIB:${r.bib}__${r.name}__${r.gender}__${age}`,
    age: r.age,
  });
  tx.createEntity({
    partitionKey: partitionOf(r.event, r.distance),
    rowKey: `AGE:${age}__${bib}__${r.name}__${r.gender}`,
    bib: r.bib,
  });
  await registrations.submitTransaction(tx.actions);
}

export function byBib(event: string, distance: string, bib: number) {
  // A row range: one partition, the rows whose key starts with the bib.
  const from = `BIB:${String(bib).padStart(5, "0")}__`;
  return registrations.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${partitionOf(event, distance)} and RowKey ge ${from} and RowKey lt ${from.slice(0, -1) + "`"}` },
  });
}

export function byAge(event: string, distance: string, from: number, to: number) {
  // A row range over the index rows: ages are padded, so they sort as numbers.
  const low = `AGE:${String(from).padStart(3, "0")}`;
  const high = `AGE:${String(to + 1).padStart(3, "0")}`;
  return registrations.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${partitionOf(event, distance)} and RowKey ge ${low} and RowKey lt ${high}` } });
}

export function everyoneNamed(name: string) {
  // A table scan: no PartitionKey in the filter, so every partition is read.
  return registrations.listEntities({ queryOptions: { filter: odata`name eq ${name}` } });
}
