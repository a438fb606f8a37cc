import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const api = 'http://127.0.0.1:8080';

// Which build a tab runs (user menu): MARQUEE_BUILD_ID (e.g. a commit) or the build's time.
const buildId = process.env.MARQUEE_BUILD_ID || new Date().toISOString().slice(0, 16).replace('T', ' ');

export default defineConfig({
  root: 'src/web',
  define: { __MARQUEE_BUILD__: JSON.stringify(buildId) },
  plugins: [
    react(),
    // A service worker precaches the shell and the route chunks; the app asks before updating.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Marquee',
        short_name: 'Marquee',
        description: 'Content and marketing management',
        theme_color: '#5b4bdb',
        background_color: '#f8f9fa',
        display: 'standalone',
        start_url: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        navigateFallback: 'index.html',
        // The API, function service, delivery and config are never answered from the cache.
        navigateFallbackDenylist: [/^\/api\//, /^\/fun\//, /^\/delivery\//, /^\/__\//, /^\/healthz/],
        runtimeCaching: [],
      },
    }),
  ],
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  css: { postcss: fromRoot('./postcss.config.cjs') },
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    // bench/bundle.ts reads it to weigh what each screen loads.
    manifest: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/fun': { target: api, changeOrigin: false },
      '/healthz': { target: api, changeOrigin: false },
    },
  },
});
