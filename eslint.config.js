// Lint rules. The one rule that matters most here keeps the game and learning core pure:
// the stage folders of src/ may not import the Discord, storage or rendering packages.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const edgePackages = ['discord.js', 'keyv', '@keyv/redis', 'canvas', 'redis', 'ioredis'];

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
  {
    files: ['src/{rules,notation,recognition,learning,play,gomocup}/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: edgePackages.map((name) => ({
            name,
            message: 'The core (src/rules to src/gomocup) is pure: put this in an edge module (src/render, src/storage, src/discord).',
          })),
        },
      ],
    },
  },
);
