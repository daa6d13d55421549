import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ConnectionStringError, DEV_ACCOUNT, DEV_KEY, parseConnectionString } from "@runtime/account/connection-string";

/** A key of the real length (64 bytes, 88 base64 characters) that no message may quote. */
const KEY = createHash("sha512").update("connection-string.test").digest("base64");
const SIG = encodeURIComponent(createHash("sha256").update("sig").digest("base64"));

/** Throws when `text` holds any 8-character piece of `secret`. */
function assertNoPiece(text: string, secret: string, context: string): void {
  for (let i = 0; i + 8 <= secret.length; i++) {
    assert.ok(!text.includes(secret.slice(i, i + 8)), `${context}: '${text}' holds a piece of the secret at ${i}`);
  }
}

function messageOf(cs: string): string {
  try {
    parseConnectionString(cs);
  } catch (e) {
    assert.ok(e instanceof ConnectionStringError, `${cs}: ${String(e)}`);
    return (e as Error).message;
  }
  assert.fail(`parsed: ${cs}`);
}

test("a key after a space, a colon or no name is refused by naming the setting and segment, never quoting the key", () => {
  // Issue 10: these printed "unknown setting '<most of the key>'" through tdl stress and VS Code.
  const cases: Array<[string, RegExp]> = [
    [
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey ${KEY};EndpointSuffix=core.windows.net`,
      /^AccountKey \(segment 3\) needs '=' between the name and the value/,
    ],
    [`DefaultEndpointsProtocol=https;AccountName=acct;AccountKey:${KEY}`, /^AccountKey \(segment 3\) needs '='/],
    [`DefaultEndpointsProtocol=https;AccountName=acct;AccountKey: ${KEY}`, /^AccountKey \(segment 3\) needs '='/],
    [`DefaultEndpointsProtocol=https;AccountName=acct;${KEY}`, /^segment 3 looks like an account key without its name: write AccountKey=…/],
    [`${KEY}`, /^segment 1 looks like an account key/],
    [`AccountName=acct;${KEY.slice(0, 40)};${KEY.slice(40)}`, /^segment 2 looks like an account key/],
    [
      `AccountName=acct;AccountKey=${KEY.slice(0, 30)} ${KEY.slice(30)}`,
      /^AccountKey \(segment 2\) is not base64: its character 31 is a space or line break/,
    ],
    [`AccountName=acct;AccountKey=${KEY.slice(0, -1)}`, /^AccountKey \(segment 2\) is not complete base64 \(87 characters/],
    [
      `AccountName=acct;AccountKey=${KEY};AccountKey=${KEY.slice(4)}`,
      /^AccountKey is set twice with different values \(segments 2 and 3\)/,
    ],
    [`AccountName=acct;SharedAccessSignature sv=2020-08-04&sig=${SIG}`, /^SharedAccessSignature \(segment 2\) needs '='/],
    [`AccountName=acct;sv=2020-08-04&ss=t&sig=${SIG}`, /^segment 2 looks like a SAS token without its name/],
    [`AccountName=acct;SharedAccessSignature=sv=2020-08-04&ss=t`, /^SharedAccessSignature \(segment 2\) has no signature/],
    [`AccountName=a c;AccountKey=${KEY}`, /^AccountName \(segment 1\) may hold only letters, digits and hyphens/],
  ];
  for (const [cs, expected] of cases) {
    const message = messageOf(cs);
    assert.match(message, expected, cs);
    assertNoPiece(message, KEY, cs);
    assertNoPiece(message, SIG, cs);
  }
});

test("unknown settings are named only when they cannot be a piece of a secret", () => {
  assert.match(messageOf("AccountName=a;Secret=b"), /^unknown setting 'Secret' in segment 2/);
  assert.match(messageOf(`AccountName=a;AcountKey=${KEY}`), /^unknown setting 'AcountKey' in segment 2: did you mean AccountKey\?/);
  assert.match(messageOf(`AccountEndpoint=https://x.documents.azure.com:443/;AccountKey=${KEY}`), /Cosmos DB for NoSQL/);
  // A long name of random letters (a piece of a key split at ';') is not quoted.
  const piece = "QmFzZTY0S2V5UGllY2U";
  const message = messageOf(`AccountName=a;AccountKey=abcd;${piece}=x`);
  assert.equal(message.startsWith("segment 3 is not a Name=value setting"), true, message);
  assert.ok(!message.includes(piece));
});

test("malformed connection strings say what is wrong", () => {
  const cases: Array<[string, RegExp]> = [
    ["", /empty/],
    ["   ", /empty/],
    [";\r\n;;", /empty \(it holds only separators\)/],
    ["AccountName=a;AccountKey", /^AccountKey \(segment 2\) has no value: write AccountKey=…/],
    ["AccountName=a;AccountKey=", /^AccountKey \(segment 2\) has no value/],
    ["DefaultEndpointsProtocol=https;AccountName=acct", /no AccountKey and no SharedAccessSignature/],
    ["AccountName=acct;AccountKey=not base64!", /AccountKey \(segment 2\) is not base64: its character 4 is a space/],
    ["TableEndpoint=ftp://x;AccountName=a;AccountKey=abc=", /TableEndpoint \(segment 1\) must use https/],
    ["TableEndpoint=::nope::;AccountName=a;AccountKey=abc=", /TableEndpoint \(segment 1\) is not a URL/],
    ["TableEndpoint=https://user:pw@acct.table.core.windows.net;AccountKey=abc=", /must not hold a user name or password/],
    ["TableEndpoint=https://acct.table.core.windows.net/?x=1;AccountKey=abc=", /has a query string that is not a SAS token/],
    ["TableEndpoint=https://acct.table.core.windows.net/a/b/c;AccountKey=abc=", /must be the table service's address only/],
    ["DefaultEndpointsProtocol=ftp;AccountName=a;AccountKey=abc=", /DefaultEndpointsProtocol \(segment 1\) must be https or http/],
    ["AccountName=a;AccountKey=abc=;EndpointSuffix=a b", /EndpointSuffix \(segment 3\) is not a domain/],
    ["https://acct.table.core.windows.net", /this is a URL, not a connection string/],
    [
      `TableEndpoint=https://a.table.core.windows.net/?sv=1&sig=${SIG};SharedAccessSignature=sv=2&sig=${SIG}`,
      /both TableEndpoint \(segment 1\) and SharedAccessSignature \(segment 2\) carry a SAS token/,
    ],
  ];
  for (const [cs, expected] of cases) assert.match(messageOf(cs), expected, JSON.stringify(cs));
});

test("connection strings read the same with quotes, any case of names, and \\r, \\r\\n or \\n between settings", () => {
  const expected = {
    endpoint: "https://acct.table.core.windows.net",
    accountName: "acct",
    accountKey: KEY,
    sas: undefined,
    emulator: false,
  };
  for (const cs of [
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${KEY};EndpointSuffix=core.windows.net`,
    `"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${KEY};EndpointSuffix=core.windows.net;"`,
    `'defaultendpointsprotocol=https;ACCOUNTNAME=acct;accountKey=${KEY}'`,
    `DefaultEndpointsProtocol=https\rAccountName=acct\rAccountKey=${KEY}`,
    `DefaultEndpointsProtocol=https\r\nAccountName=acct\r\nAccountKey=${KEY}\r\n`,
    `DefaultEndpointsProtocol=https;\nAccountName = acct ;\r\n AccountKey=${KEY};;`,
    `AccountName=acct;AccountKey=${KEY};AccountName=acct`,
  ])
    assert.deepEqual(parseConnectionString(cs), expected, JSON.stringify(cs));
});

test("a SAS in TableEndpoint's query is split off: the endpoint holds no query", () => {
  const parsed = parseConnectionString(`TableEndpoint=https://acct.table.core.windows.net/?sv=2020-08-04&ss=t&srt=sco&sp=rl&sig=${SIG}`);
  assert.deepEqual(parsed, {
    endpoint: "https://acct.table.core.windows.net",
    accountName: "acct",
    accountKey: undefined,
    sas: `sv=2020-08-04&ss=t&srt=sco&sp=rl&sig=${SIG}`,
    emulator: false,
  });
  const both = parseConnectionString(
    `TableEndpoint=https://acct.table.core.windows.net?sv=1&sig=${SIG};SharedAccessSignature=?sv=1&sig=${SIG}`,
  );
  assert.equal(both.sas, `sv=1&sig=${SIG}`);
});

test("emulator endpoints: UseDevelopmentStorage, path-style loopback, and a name that only starts with 127 is not local", () => {
  assert.deepEqual(parseConnectionString("UseDevelopmentStorage=true"), {
    endpoint: `http://127.0.0.1:10002/${DEV_ACCOUNT}`,
    accountName: DEV_ACCOUNT,
    accountKey: DEV_KEY,
    emulator: true,
  });
  assert.equal(
    parseConnectionString("UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://localhost").endpoint,
    `http://localhost:10002/${DEV_ACCOUNT}`,
  );
  const local = parseConnectionString(
    `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};TableEndpoint=http://127.0.0.1:10002/${DEV_ACCOUNT}/;`,
  );
  assert.deepEqual([local.endpoint, local.accountName, local.emulator], [`http://127.0.0.1:10002/${DEV_ACCOUNT}`, DEV_ACCOUNT, true]);
  assert.equal(parseConnectionString(`TableEndpoint=http://[::1]:10002/${DEV_ACCOUNT};AccountKey=${DEV_KEY}`).emulator, true);
  // Issue 10: an account named "127" counted as local and skipped the real-account confirmation.
  const named127 = parseConnectionString(`DefaultEndpointsProtocol=https;AccountName=127;AccountKey=${KEY}`);
  assert.deepEqual([named127.endpoint, named127.emulator], ["https://127.table.core.windows.net", false]);
  assert.equal(parseConnectionString(`TableEndpoint=https://127.0.0.1.nip.io;AccountName=a;AccountKey=${KEY}`).emulator, false);
});

test("a 1 MB connection string is read (or refused) in linear time", () => {
  const huge = `AccountName=acct;AccountKey=${"A".repeat(1_000_001)}`;
  const started = performance.now();
  assert.throws(() => parseConnectionString(huge), /AccountKey \(segment 2\) is not complete base64/);
  const junk = `AccountName=b;${"x:".repeat(500_000)}`;
  assert.throws(() => parseConnectionString(junk), /segment 2 is not a Name=value setting/);
  // Quadratic work on 1 MB takes minutes; the bound is far above linear time on a busy machine.
  assert.ok(performance.now() - started < 5000, `took ${Math.round(performance.now() - started)} ms`);
});
