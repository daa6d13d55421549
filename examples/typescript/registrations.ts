// Writing race registrations from application code (the marathon design in
// ../marathon.tdl). The language server checks how these keys are built.
import { TableClient, odata } from "@azure/data-tables";

const registrations = TableClient.fromConnectionString(process.env.TABLES_CONNECTION ?? "UseDevelopmentStorage=true", "Registrations");

export interface Registration {
  event: string;
  distance: "Full" | "Half" | "TenK";
  bib: number;
  name: string;
  age: number;
}

export async function register(r: Registration): Promise<void> {
  // The bib is a number: unpadded, "111" would sort before "2". The quick fix
  // pads it to 5 digits, the width the design declares for Bib.
  await registrations.createEntity({
    partitionKey: `${r.event},${r.distance}`,
    rowKey: `BIB:${r.bib}`,
    name: r.name,
    age: r.age,
  });
}

export async function byBib(event: string, distance: string, bib: number) {
  // A point read: both keys given.
  return registrations.getEntity(`${event},${distance}`, `BIB:${String(bib).padStart(5, "0")}`);
}

export function runnersOf(event: string, distance: string) {
  // A row range: one partition, every row of it.
  return registrations.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${`${event},${distance}`}` } });
}

export function everyoneNamed(name: string) {
  // A table scan: no PartitionKey in the filter, so every partition is read.
  return registrations.listEntities({ queryOptions: { filter: odata`name eq ${name}` } });
}
