// The browser's Platform (a web worker extension host: vscode.dev, github.dev, code-server's browser
// host): no environment, no local files or processes; images scaled with OffscreenCanvas, the
// browser's WebSocket for Jupyter Servers reached by URL.

import { CROSS_ORIGIN_HINT, type Platform } from '../extension/platform';
import { canvasResizer } from './canvasResizer';
import { fetchPage } from '../extension/web/fetchPage';
import { htmlToMarkdown } from '../extension/web/htmlMarkdown';
import { inPlaceIndex } from '../extension/search/indexCalls';

/** A browser's fetch fails with a bare TypeError when the site refuses cross-origin reads (CORS). */
async function browserFetch(url: string, opts: Parameters<Platform['fetchPage']>[1]): ReturnType<Platform['fetchPage']> {
  try {
    // No User-Agent: a header outside CORS's safe list makes the browser ask the site first, and most refuse.
    return await fetchPage(url, { ...opts, headers: {}, redirect: 'follow' });
  } catch (e) {
    if (e instanceof TypeError) throw new Error(`the browser could not read it (${e.message}): ${CROSS_ORIGIN_HINT}`, { cause: e });
    throw e;
  }
}

export const webPlatform: Platform = {
  kind: 'browser',
  env: () => undefined,
  imageResizer: canvasResizer,
  WebSocket: globalThis.WebSocket,
  fetchPage: browserFetch,
  htmlToMarkdown: async (html, url, selector) => htmlToMarkdown(html, url, selector),
  searchIndex: inPlaceIndex,
  homeDir: () => '/',
};
