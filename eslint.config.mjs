// Lint: typescript-eslint's recommended rules over every TypeScript file,
// with the few choices this codebase makes on purpose. Formatting is
// Prettier's job (`npm run format`), not ESLint's. The layer boundaries are
// checked by test/unit/layers.test.ts over the import graph.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      ".tsbuild/**",
      "node_modules/**",
      ".vscode-test/**",
      "workspace/**",
      "test/fixtures/**",
      "test/corpus/**",
      "**/*.d.mts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Unused names are mistakes, except a deliberate `_` prefix.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Control characters in regexes are how keys' forbidden characters are written.
      "no-control-regex": "off",
    },
  },
  { files: ["webview/**/*.ts"], languageOptions: { globals: { ...globals.browser } } },
);
