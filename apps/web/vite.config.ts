import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * React Router's package exports only its development build (dev warnings on, such as "No routes
 * matched location" at every first load of a private page while its routes are discovered); its
 * production build sits beside it. The app's build takes that one (`vite` in development keeps the
 * warnings). Both entries import the same shared chunks, so the router and its DOM half share one
 * context.
 */
const routerDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router')), '..', 'production');
const productionRouter = [
  { find: /^react-router\/dom$/, replacement: path.join(routerDist, 'dom-export.mjs') },
  { find: /^react-router$/, replacement: path.join(routerDist, 'index.mjs') },
];

/**
 * The contract's modules only declare values (route table, schemas, pure
 * functions). Marking them side-effect free lets the bundler drop what a chunk
 * does not use, so the route table in the entry chunk does not drag every zod
 * schema with it.
 */
function contractIsPure(): Plugin {
  return {
    name: 'pitboss:contract-is-pure',
    transform: {
      filter: { id: /[\\/]packages[\\/]contract[\\/]src[\\/].*\.ts$/ },
      handler: () => ({ code: undefined as unknown as string, moduleSideEffects: false }),
    },
  };
}

/**
 * Mantine pieces every screen uses, the sign-in page included, go out as one
 * chunk: one file compresses better than twenty tiny ones.
 */
const UI_BASE = new RegExp(
  String.raw`[\/]node_modules[\/]@mantine[\/]core[\/]esm[\/]` +
    String.raw`(core|components[\/](Box|Input|InputBase|TextInput|PasswordInput|Button|ActionIcon|CloseButton|Transition|UnstyledButton|Title|Group|Text|Paper|Stack|Anchor|ThemeIcon|Loader|Center)[\/])`,
);

// `source` first: @pitboss/contract resolves to its TypeScript source, so the
// web build never depends on the contract's compiled output.
export default defineConfig(({ command }) => ({
  plugins: [react(), contractIsPure()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
    ...(command === 'build' ? { alias: productionRouter } : {}),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the admin supports preloads modules natively (Chromium 66+, Firefox 115+, Safari 17+):
    // the polyfill would only cost the sign-in page's first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'ui-base', test: UI_BASE }] },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:4000' },
  },
}));
