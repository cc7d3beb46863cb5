// Builds the page into the gateway's target/classes/static (so it is inside the gateway jar and served by Spring
// Boot at /), and runs the unit tests of its client logic (vitest). The Maven build runs both (gateway/pom.xml).

import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const outDir = process.env.WARPBUS_WEB_OUT ?? fileURLToPath(new URL('../../../target/classes/static', import.meta.url));

export default defineConfig({
    base: '/',
    build: {
        outDir,
        emptyOutDir: true,
        target: 'es2022',
        assetsDir: 'assets',
        sourcemap: true,
        chunkSizeWarningLimit: 400,
    },
    server: {
        // `npm run dev` next to a gateway on :8080: the page from Vite, its WebSocket and REST calls to the gateway.
        proxy: {
            '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
            '/api': 'http://127.0.0.1:8080',
        },
    },
    test: {
        include: ['test/**/*.test.ts'],
        environment: 'node',
        testTimeout: 10_000,
        reporters: ['default'],
    },
});
