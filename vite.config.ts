import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const alias = {
  '~': fileURLToPath(new URL('./app', import.meta.url)),
  '~db': fileURLToPath(new URL('./db', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  environments: {
    // The server build's entry is our Express app, which embeds the React Router handler.
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
  },
  plugins: [tailwindcss(), reactRouter()],
});
