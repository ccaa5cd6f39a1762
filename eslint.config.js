// Lint rules. The ones that matter most here keep the layout true (issue 29; house style 1 and
// 7): src/ is cut into the stages of the paper's program, and each folder may import only the
// folders below it. The core (rules up to gomocup) imports no Discord, storage or rendering
// package; the edges import the core, and never each other's internals. Circles are caught
// apart, by test/layout.test.ts: a pattern on one import cannot see them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const edgePackages = ['discord.js', 'keyv', '@keyv/redis', 'canvas', 'redis', 'ioredis'];

/** The stages of the paper's program, lowest first: each may import those before it. */
const core = ['rules', 'notation', 'recognition', 'learning', 'play', 'gomocup'];

/**
 * What each folder of src/ may import besides its own files (each folder's README.md says
 * why). `commands` and `bench` are the top-level folders of those names: the slash commands,
 * which only the Discord edge lists, and the benchmarks, which `gomoku bench` runs.
 */
const mayImport = {
  ...Object.fromEntries(core.map((stage, i) => [stage, core.slice(0, i)])),
  render: ['rules'],
  storage: ['rules'],
  bot: [...core, 'render', 'storage'],
  cli: [...core, 'render', 'storage', 'bot', 'bench'],
  discord: [...core, 'render', 'storage', 'bot', 'commands'],
};
const folders = [...Object.keys(mayImport), 'commands', 'bench', 'test'];

/** One `no-restricted-imports` for a folder's files: its forbidden folders, and for the core the edge packages. */
function restrictedImports(folder) {
  const forbidden = folders.filter((f) => f !== folder && !mayImport[folder].includes(f));
  const pure = core.includes(folder);
  return [
    'error',
    {
      paths: pure ? edgePackages.map((name) => ({ name, message: 'The core (src/rules to src/gomocup) is pure: put this in an edge module (src/render, src/storage, src/discord).' })) : [],
      patterns: [
        {
          regex: `^(\\.\\./)+(src/)?(${forbidden.join('|')})/`,
          message: `src/${folder} may import ${mayImport[folder].length === 0 ? 'nothing outside itself' : mayImport[folder].join(', ')} (src/${folder}/README.md): an import goes down the layers, never up or across.`,
        },
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  ...Object.keys(mayImport).map((folder) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': restrictedImports(folder) },
  })),
  {
    // The slash commands are the Discord edge's, above the bot's service; the command line is another edge.
    files: ['commands/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./src/cli/', message: 'A slash command may not import the command line (src/cli): what both need belongs in src/bot.' }] }],
    },
  },
  {
    // A file in no layer would be checked by nothing above: it must find its place first.
    files: ['src/*.ts', 'src/*/**/*.ts'],
    ignores: Object.keys(mayImport).map((folder) => `src/${folder}/**`),
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Program', message: 'This file is in no layer of src/: put it in a stage folder, or add its folder to mayImport in eslint.config.js.' }],
    },
  },
);
