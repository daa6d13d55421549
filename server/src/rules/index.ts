/**
 * Every rule the analysis runs, in reporting order. A new rule family is one
 * more module and one more line here.
 */
import { Rule } from "./rule";
import { duplicateName, unknownProperty } from "./names";
import { missingKey, tableInvalidName } from "./table";
import { invalidArgument } from "./arguments";

export const RULES: readonly Rule[] = [
  unknownProperty,
  duplicateName,
  missingKey,
  invalidArgument,
  tableInvalidName,
];
