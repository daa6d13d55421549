import { test } from "node:test";
import { expectFindings } from "../../../helpers/analysis";

test("invalid-argument: pad, hash, bucket, date, reverse, type bounds and charsets", () => {
  expectFindings(
    `table Things {
  S: string(10)
  N: int(0..«3000000000»)
  M: «int(9..1)»
  D: datetime
  C: string charset "a-c«z»-a"
  E: enum(X, Y, «X»)
  H: bool «increasing»
  partitionKey = pad(«S», 3) + hash(S, «33») + bucket(S, «0»)
  rowKey = date(D, «"yyyy-M-d"») + reverse(«S») + pad(M, «0») + «lower(S, 2)»
  rows «0»
  query Q where N = «"x"» and «D» prefix ?
}`,
    "invalid-argument",
  );
});

test("invalid-argument: a retention of zero", () => {
  expectFindings(
    `table Readings {
  At: datetime increasing
  partitionKey = date(At, "yyyyMMdd")
  rowKey = date(At, "HHmmss")
  retention «0d»
}`,
    "invalid-argument",
  );
  expectFindings(
    `table Readings {
  At: datetime increasing
  partitionKey = date(At, "yyyyMMdd")
  rowKey = date(At, "HHmmss")
  retention 0.5d
}`,
    "invalid-argument",
  );
});
