import { NextRequest, NextResponse } from "next/server";
import { addToCart, bump, cartOf } from "../../../lib/catalog";

export async function POST(req: NextRequest) {
  const { user, sku } = (await req.json()) as { user: string; sku: string };
  if (!(await addToCart(user, sku, 1))) await bump(user, sku);
  return NextResponse.json({ ok: true });
}

export async function GET(req: NextRequest) {
  const user = req.nextUrl.searchParams.get("user") ?? "";
  const rows = [];
  for await (const r of await cartOf(user)) rows.push(r);
  return NextResponse.json(rows);
}
