/**
 * Every rule the analysis runs, in reporting order. A new rule family is one
 * more module and one more line here.
 */
import { codesWith, Rule } from "./rule";
import { duplicateName, unknownProperty } from "./names";
import { missingKey, tableInvalidName } from "./table";
import { invalidArgument } from "./arguments";
import { invalidCharacter, padTooNarrow, separatorOrder, tooLong, unpaddedNumber } from "./keys";
import { appendOnly, hot, singleValue, tooLarge } from "./partitions";
import { filterSyntax, lowSelectivity, queryClass, tableScan, unorderedRange } from "./queries";
import { crossPartition, transactionTooLarge } from "./transactions";
import { entityTooLarge, tooManyProperties } from "./entities";
import { account } from "./throughput";
import { dateNotIncreasing } from "./time-keys";
import { mutableProperty } from "./mutable-keys";

export const RULES: readonly Rule[] = [
  // Syntax and meaning
  unknownProperty,
  duplicateName,
  missingKey,
  invalidArgument,
  tableInvalidName,
  filterSyntax,
  // Keys
  unpaddedNumber,
  padTooNarrow,
  separatorOrder,
  invalidCharacter,
  tooLong,
  mutableProperty,
  // Partitions and load
  appendOnly,
  dateNotIncreasing,
  singleValue,
  hot,
  tooLarge,
  account,
  // Queries
  queryClass,
  tableScan,
  lowSelectivity,
  unorderedRange,
  // Transactions and entities
  crossPartition,
  transactionTooLarge,
  entityTooLarge,
  tooManyProperties,
];

/** Codes about the partition key's load or size, whose preferred fix a stress test compares with. */
export const PARTITION_CODES = codesWith(RULES, "partition");
