import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests (pure core, CLI, panel components) and real-browser/real-server
// end-to-end tests, which run one file at a time because the machine has two cores.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/unit/**/*.test.ts'],
          environment: 'node',
          // Property tests run thousands of cases; on a loaded two-core machine one can take
          // several times its usual second.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
