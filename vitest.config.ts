import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
