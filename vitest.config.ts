import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['{main,shared,stack,scripts,bench}/**/*.test.ts'],
          // Builds out/stack and out/main once, for tests that run them as real child processes.
          globalSetup: ['./vitest.global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['./vitest.setup.ts'],
          // A hang guard, not a budget: on 2 shared cores a jsdom render with user-event steps takes
          // several seconds (TabbedArea and the bridge's invalidation test passed 5 s under load).
          testTimeout: 20_000,
        },
      },
    ],
  },
});
