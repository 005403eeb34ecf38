/// <reference types="vitest/config" />
// Vite builds the page Tauri embeds (ui-desktop/web/dist) and Vitest tests it in jsdom.
// Relative base: Tauri serves dist/ from its own protocol. No module-preload polyfill:
// it would be an extra script the strict CSP has no reason to allow.

import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  plugins: [preact()],
  clearScreen: false,
  // The tests also read the HTML report's formats (../../assets/report/format.js).
  server: { port: 1420, strictPort: true, fs: { allow: ['.', '../../assets/report'] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // Keep every asset a file: nothing inlined as data: beyond what img-src allows.
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
  },
});
