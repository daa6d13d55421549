/** The version `tdl --version` prints and SARIF names: the package's, defined by the build (esbuild.mjs); "dev" from source. */
declare const TDL_VERSION: string | undefined;

export const VERSION = typeof TDL_VERSION === "string" ? TDL_VERSION : "dev";
