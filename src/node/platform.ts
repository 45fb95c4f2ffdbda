// The desktop's Platform: Node's environment, sharp, local files, the `ws` WebSocket, a local Jupyter Server and
// the machine's Python environments with their kernelspecs.

import { lookup } from 'node:dns/promises';
import { open, stat, utimes } from 'node:fs/promises';
import { homedir } from 'node:os';
import WebSocket from 'ws';
import type { Platform } from '../extension/platform';
import { discover, probe } from '../extension/environments/discovery';
import { KernelSpecFolder } from '../extension/environments/kernelSpecs';
import { startLocalServer } from '../extension/jupyter/localServer';
import { readFileRefs } from './fileRefReader';
import { gitHeadText } from './gitHead';
import { listenLoopback } from './loopback';
import { searchIndexWorker } from './searchWorker';
import { sharpResizer } from './sharpResizer';
import { watchLocalFile } from './watchLocalFile';
import { fetchPage } from '../extension/web/fetchPage';
import { pinnedFetch } from './pinnedFetch';
import { pdfInWorker } from './pdfInWorker';

export const nodePlatform: Platform = {
  kind: 'desktop',
  env: (name) => process.env[name],
  imageResizer: sharpResizer,
  statFile: (path) =>
    stat(path).then(
      (s) => (s.isFile() ? { mtime: s.mtimeMs, size: s.size } : undefined),
      () => undefined,
    ),
  readLocalFile: async (path) => {
    // One open file: its time is the time of the bytes read (a rename in between replaces the path's file).
    const file = await open(path).catch(() => undefined);
    if (!file) return undefined;
    try {
      const s = await file.stat();
      return { bytes: await file.readFile(), mtime: s.mtimeMs };
    } catch {
      return undefined;
    } finally {
      await file.close();
    }
  },
  watchLocalFile,
  setFileMtime: (path, mtime) => utimes(path, new Date(), new Date(mtime)),
  readFileRefs,
  WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
  startLocalServer,
  environmentFinder: { discover, probe: (c) => probe(c) },
  kernelSpecFolder: () => new KernelSpecFolder(),
  listenLoopback,
  loadMcp: () => import('./mcpSdk'),
  gitHeadText,
  fetchPage: async (url, opts) => fetchPage(url, { ...opts, redirect: 'manual', fetch: await pinnedFetch(opts.allowPrivate) }),
  resolveHost: async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
  pdfToText: pdfInWorker,
  htmlToMarkdown: async (html, url, selector) => (await import('./webConvert')).htmlToMarkdown(html, url, selector),
  searchIndex: searchIndexWorker,
  homeDir: homedir,
};
