import tseslint from "typescript-eslint";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  {
    ignores: [
      ".next*/**",
      "lib/db/generated/**",
      "clients/typescript/schema.d.ts",
      "clients/typescript/dist/**",
      "node_modules/**",
      "data/**",
      ".cache/**",
      ".messenger/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  {
    // Playwright fixtures take a `use` callback that is not React's hook.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Handlers implement an async interface whether or not they await.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/only-throw-error": "error",
      // With verbatimModuleSyntax a type-only import must say so; inline `type` keeps one import per module.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-import-type-side-effects": "error",
    },
  },
);
