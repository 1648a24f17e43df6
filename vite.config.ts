import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in web/ and is built to dist/web, which the server serves. WEB_DIST_DIR moves
// both ends at once (the server reads the same variable), so `WEB_DIST_DIR=/tmp/x npm start`
// builds into and serves from /tmp/x without touching dist/ (tests do this).
const outDir = path.resolve(process.env.WEB_DIST_DIR?.trim() || 'dist/web');

export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json maps each page module to its chunks: bench/bundle-size.ts reads it.
    manifest: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/version.json': 'http://127.0.0.1:3000',
      '/ws': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
