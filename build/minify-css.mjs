// The stylesheets are CSS in `/* css */` template literals (src/styles/*.styles.ts), so the
// bundle carries them as strings: minify those strings at build time with esbuild's CSS
// minifier, which terser (a JS minifier) cannot do.
import { transform } from 'esbuild';

const CSS_LITERAL = /\/\* css \*\/\s*`([^`$]*)`/g;

export function minifyCss() {
  return {
    name: 'minify-css',
    async transform(code, id) {
      if (!id.endsWith('.styles.ts')) return null;
      let out = code;
      for (const [literal, css] of code.matchAll(CSS_LITERAL)) {
        const { code: minified } = await transform(css, { loader: 'css', minify: true });
        out = out.replace(literal, JSON.stringify(minified.trim()));
      }
      return { code: out, map: null };
    },
  };
}
