import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The till UI. `npm run build:pos` (scripts/build.ts) builds it into .builds/ and swaps it in as dist/, which the
 * server serves from the same origin; outDir below is for a bare `vite build`.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    // No assets inlined as data: URIs; the desktop CSP serves fonts and styles from 'self' only.
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev -w apps/pos` next to `npm run server`: API calls go to the local server.
    proxy: { '/api': 'http://127.0.0.1:8000', '/health': 'http://127.0.0.1:8000' },
  },
});
