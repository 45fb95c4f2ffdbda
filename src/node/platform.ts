// The desktop's Platform: Node's environment, sharp, local files, the `ws` WebSocket and a local Jupyter Server.

import { homedir } from 'node:os';
import WebSocket from 'ws';
import type { Platform } from '../extension/platform';
import { startLocalServer } from '../extension/kernel/localServer';
import { readFileRefs } from './fileRefReader';
import { sharpResizer } from './sharpResizer';

export const nodePlatform: Platform = {
  kind: 'desktop',
  env: (name) => process.env[name],
  imageResizer: sharpResizer,
  readFileRefs,
  WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
  startLocalServer,
  homeDir: homedir,
};
