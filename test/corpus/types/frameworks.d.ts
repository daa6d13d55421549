// Minimal shapes of the frameworks the corpus apps use (not installed in this repository).
declare module "@azure/functions" {
  export interface HttpRequest { query: URLSearchParams; params: Record<string, string>; json(): Promise<unknown>; headers: Headers }
  export interface HttpResponseInit { status?: number; jsonBody?: unknown; body?: string }
  export interface InvocationContext { log(...args: unknown[]): void; error(...args: unknown[]): void }
  export interface Timer { isPastDue: boolean }
  export const app: {
    http(name: string, options: { methods?: string[]; authLevel?: string; route?: string; handler: (req: HttpRequest, ctx: InvocationContext) => Promise<HttpResponseInit> }): void;
    timer(name: string, options: { schedule: string; handler: (t: Timer, ctx: InvocationContext) => Promise<void> }): void;
  };
}
declare module "next/server" {
  export class NextRequest extends Request { nextUrl: URL }
  export const NextResponse: { json(body: unknown, init?: { status?: number }): Response };
}
declare module "express" {
  export interface Request { params: Record<string, string>; query: Record<string, string | undefined>; body: any }
  export interface Response { json(body: unknown): Response; status(code: number): Response; end(): void }
  export interface Router { get(path: string, h: (req: Request, res: Response) => unknown): Router; post(path: string, h: (req: Request, res: Response) => unknown): Router; put(path: string, h: (req: Request, res: Response) => unknown): Router }
  export function Router(): Router;
}
declare module "ulid" {
  export function ulid(seedTime?: number): string;
  export function monotonicFactory(): () => string;
}
declare module "date-fns" {
  export function format(date: Date | number, pattern: string): string;
  export function subDays(date: Date | number, amount: number): Date;
}
declare module "dayjs" {
  interface Dayjs { format(pattern?: string): string; subtract(n: number, unit: string): Dayjs; toISOString(): string }
  function dayjs(d?: Date | string | number): Dayjs;
  export default dayjs;
}
