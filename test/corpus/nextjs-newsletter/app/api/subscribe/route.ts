import { NextRequest, NextResponse } from "next/server";
import { randomUUID } from "node:crypto";
import { store } from "../../../lib/db";

export async function POST(req: NextRequest) {
  const { email } = (await req.json()) as { email?: string };
  if (!email || !email.includes("@")) return NextResponse.json({ error: "email required" }, { status: 400 });
  await store.add(email, randomUUID());
  return NextResponse.json({ ok: true });
}

export async function GET(req: NextRequest) {
  const year = Number(req.nextUrl.searchParams.get("year") ?? new Date().getUTCFullYear());
  const rows = [];
  for await (const r of await store.issuesOf(year)) rows.push(r);
  return NextResponse.json(rows);
}
