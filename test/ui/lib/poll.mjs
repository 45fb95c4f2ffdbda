// Waiting for a state in a UI script: what a person would see, polled (never a fixed short wait).
import fs from 'node:fs';
import { extensionSaid } from './extensionLog.mjs';

/** Polls `read` until `ok` holds for what it returns; returns it. */
export async function until(page, read, ok, what, timeout = 60000) {
  let v;
  for (const end = Date.now() + timeout; Date.now() < end; await page.waitForTimeout(200)) {
    v = await read();
    if (ok(v)) return v;
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)?.slice(0, 400)}${extensionSaid()}`);
}

/** The saved dialog's cells, or undefined while VS Code is still writing the file (a read then sees part of it). */
export function savedCells(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')).cells;
  } catch {
    return undefined;
  }
}

/** The source of the saved dialog's cell `index` as one string ('' while the file is being written). */
export function savedSource(file, index) {
  const s = savedCells(file)?.[index]?.source ?? '';
  return Array.isArray(s) ? s.join('') : s;
}
