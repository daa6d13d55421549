/**
 * What a `tdl` subcommand gives back to the entry point: its output streams
 * and its exit code (cli/failure.ts's EXIT). Every subcommand returns it, so
 * the tests call them in-process and read exactly what a terminal shows.
 */
export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}
