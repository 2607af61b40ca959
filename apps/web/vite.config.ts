import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
export default defineConfig({
  plugins: [react(), contractIsPure()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
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
});
