// The address of a shared dialog, as a reader pastes it: a gist's page (github.com or an Enterprise
// host's /gist/), its id, or a raw .ipynb URL.

export type SharedUrl = { kind: 'gist'; id: string } | { kind: 'raw'; url: string };

const GIST_ID = /^[0-9a-f]{20,40}$/i;

/** What `text` points at, or null when it is no gist and no .ipynb address. */
export function sharedUrl(text: string): SharedUrl | null {
  const s = text.trim();
  if (GIST_ID.test(s)) return { kind: 'gist', id: s.toLowerCase() };
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const parts = u.pathname.split('/').filter(Boolean);
  if (/\.ipynb$/i.test(u.pathname) || parts.includes('raw')) return { kind: 'raw', url: u.href };
  // gist.github.com/<owner>/<id>, gist.github.com/<id>, <enterprise>/gist/<owner>/<id>
  const gistParts = u.hostname.startsWith('gist.') ? parts : parts[0] === 'gist' ? parts.slice(1) : null;
  const id = gistParts?.find((p) => GIST_ID.test(p));
  return id ? { kind: 'gist', id: id.toLowerCase() } : null;
}
