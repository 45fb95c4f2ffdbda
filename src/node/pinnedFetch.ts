// read_url's fetch on the desktop (issue 52): undici's fetch over an agent whose connections resolve a
// name once and connect to the address checked (checkedLookup.ts), so that DNS rebinding cannot slip a
// private address in between read_url's check and the request. undici is loaded on the first page read.

import type { Agent } from 'undici';
import { checkedLookup, type Resolver } from './checkedLookup';

const agents = new Map<boolean, Agent>();

/** The fetch of read_url on the desktop: private addresses refused at connect time unless `allowPrivate`. */
export async function pinnedFetch(allowPrivate: boolean, resolve?: Resolver): Promise<typeof globalThis.fetch> {
  const undici = await import('undici');
  const shared = resolve ? undefined : agents.get(allowPrivate);
  const dispatcher = shared ?? new undici.Agent({ connect: { lookup: checkedLookup(allowPrivate, resolve) } });
  if (!resolve) agents.set(allowPrivate, dispatcher);
  return ((url: string, init?: RequestInit) => undici.fetch(url, { ...(init as object), dispatcher })) as unknown as typeof globalThis.fetch;
}
