import { TableClient, odata } from "@azure/data-tables";
import dayjs from "dayjs";

type Mode = "solo" | "duo" | "squad";

const scores = TableClient.fromConnectionString(process.env.GAME_STORAGE ?? "", "scores");
const daily = TableClient.fromConnectionString(process.env.GAME_STORAGE ?? "", "dailyBest");

/** Highest score first: the row key is the distance to a billion, padded. */
const rank = (score: number) => String(1_000_000_000 - score).padStart(10, "0");

export async function submit(game: string, mode: Mode, player: string, score: number): Promise<void> {
  await scores.upsertEntity({ partitionKey: `${game}/${mode}`, rowKey: `${rank(score)}_${player}`, player, score }, "Replace"); // expect: ts/invalid-key-character
  await daily.upsertEntity({ partitionKey: dayjs().format("YYYY-MM-DD"), rowKey: player, score }, "Merge"); // expect: ts/append-only-key
}

export async function top(game: string, mode: Mode, n = 10) {
  const out = [];
  for await (const e of scores.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${`${game}/${mode}`}` } })) { // query: row-range
    out.push(e);
    if (out.length === n) break;
  }
  return out;
}

export async function playerBest(game: string, mode: Mode, player: string) {
  const filter = odata`PartitionKey eq ${`${game}_${mode}`} and player eq ${player}`;
  return scores.listEntities({ queryOptions: { filter } }); // query: row-range
}

export async function recordRound(game: string, round: number, mode: Mode) {
  await scores.createEntity({ partitionKey: `${game}_${mode}`, rowKey: `round_${round}` }); // expect: ts/unpadded-number
}

export async function seasons(game: string, mode: Mode) {
  return scores.listEntities({ queryOptions: { filter: `PartitionKey ge '${game}_${mode}_2025' and PartitionKey lt '${game}_${mode}_2027'` } }); // query: partition-range
}
