// The browser's Platform (a web worker extension host: vscode.dev, github.dev, code-server's browser
// host): no environment, no local files or processes; images scaled with OffscreenCanvas, the
// browser's WebSocket for Jupyter Servers reached by URL.

import type { Platform } from '../extension/platform';
import { canvasResizer } from './canvasResizer';

export const webPlatform: Platform = {
  kind: 'browser',
  env: () => undefined,
  imageResizer: canvasResizer,
  WebSocket: globalThis.WebSocket,
  homeDir: () => '/',
};
