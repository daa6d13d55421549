/**
 * Two designs the codegen property tests add to the examples: together they
 * use every key function, every type and both key encodings (UTF-16 on
 * Azure, UTF-8 with a 255-byte RowKey on Cosmos DB).
 */

/** Every key function, every type, a UTF-8 profile with a 255-byte RowKey. */
export const EVERYTHING = `service cosmos-table

table Everything {
  Name:  string(1..20)
  Code:  string(3) charset "A-Z"
  Kind:  enum(Alpha, Beta, gamma)
  Level: int(-50..50)
  Big:   int64(-4000000000000000..4000000000000000)
  Score: double
  Flag:  bool
  At:    datetime
  Id:    guid
  Blob:  binary(8B)

  partitionKey = bucket(Name, 16) + "|" + hash(Id, 6) + "|" + upper(Code)
  rowKey       = reverse(At) + "_" + pad(Level, 4) + "_" + lower(Kind) + "_" + Name
  index ByScore rowKey = Score + "~" + Flag + "~" + Blob + "~" + date(At, "yyyy-MM-dd HH:mm:ss.fff") + Id
  index ByBig rowKey = reverse(Big) + "-" + pad(Big, 20) + "-" + Level + "-" + date(At, "yyyyMMdd") + Kind

  query ByKind where Kind = ?
}
`;

/** Strings with no charset next to separators (they may hold them), on Azure (UTF-16, forbidden characters). */
export const MESSAGES = `service azure-table

table Messages {
  Room:  string(1..30)
  Topic: string(0..12)
  Seq:   int64(0..99999999999)
  Sent:  datetime
  Hot:   bool

  partitionKey = Room + "@" + bucket(Room, 7)
  rowKey       = Topic + "|" + reverse(Seq) + "|" + date(Sent, "yyyyMMddHHmmssfff") + "." + Hot
  index BySent rowKey = date(Sent, "yyyy-MM-dd HH:mm:ss.fff") + "_" + pad(Seq, 11) + "_" + Room
}
`;
