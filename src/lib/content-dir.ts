/**
 * Where the corpus lives. The demo corpus is the default; the build benchmark sets CONTENT_DIR
 * to a synthetic corpus written by scripts/generate-content.mjs.
 */
export const CONTENT_DIR: string = process.env.CONTENT_DIR ?? './src/content';
