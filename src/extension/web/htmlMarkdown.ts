// A web page as Markdown for read_url (issue 52): linkedom parses the HTML (a DOM without a browser, so
// the same code runs in the Node and the web-worker extension hosts, which has no DOMParser), the page's
// chrome is taken out (scripts, styles, navigation, hidden elements), links and images are made absolute,
// and turndown with the GFM plugin writes the rest as Markdown (tables, fenced code). Why these and not
// @mozilla/readability: docs/web.md. Desktop loads it on the first read (dist/lazy/web.js, node/webConvert.ts).

import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';

/** What no reader of the page's text needs: code, styles, embedded objects, and the site's navigation chrome. */
const CHROME = [
  'title', 'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'link', 'meta',
  'nav', 'body > header', 'body > footer', '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="search"]',
  '[hidden]', '[aria-hidden="true"]', '[style*="display:none"]', '[style*="display: none"]', '[style*="visibility:hidden"]', '[style*="visibility: hidden"]',
].join(',');

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', hr: '---' });
  td.use(gfm);
  // An inline image as data is megabytes of base64 to the model: its alt text says as much.
  td.addRule('dataImages', {
    filter: (node) => node.nodeName === 'IMG' && /^data:/i.test(node.getAttribute('src') ?? ''),
    replacement: (_content, node) => {
      const alt = (node as HTMLElement).getAttribute('alt');
      return alt ? `[image: ${alt}]` : '';
    },
  });
  return (service = td);
}

/**
 * `node` for turndown to convert in place. Turndown deep-clones what it gets so as not to change the
 * caller's DOM, and linkedom's clone of a large page costs several times its parse; the document here
 * is ours and read once, so the clone is the node itself.
 */
function inPlace(node: Element): HTMLElement {
  Object.defineProperty(node, 'cloneNode', { value: () => node, configurable: true });
  return node as unknown as HTMLElement;
}

/** `href` against `base`; unchanged when it is not a URL (turndown writes what it gets). */
function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

/**
 * linkedom's tables have no `rows`, which the GFM plugin reads: a getter on their prototype (turndown
 * converts a clone, so a property of the element itself would be lost), the rows of the table itself.
 */
function giveRows(table: Element): void {
  const proto = Object.getPrototypeOf(table) as object;
  if ('rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    configurable: true,
    get(this: Element) {
      const rows: Element[] = [];
      for (const child of Array.from(this.children)) {
        if (child.nodeName === 'TR') rows.push(child);
        else if (['THEAD', 'TBODY', 'TFOOT'].includes(child.nodeName)) rows.push(...Array.from(child.children).filter((r) => r.nodeName === 'TR'));
      }
      return rows;
    },
  });
}

/** `html` (the page at `url`) as Markdown: the body without its chrome, or only what `selector` matches. */
export function htmlToMarkdown(html: string, url: string, selector?: string): string {
  // linkedom builds a document only around an <html> element: a page without one (a fragment, or tags
  // the parser starts with) is wrapped, as a browser would.
  const { document } = parseHTML(/<html[\s>]/i.test(html.slice(0, 4096)) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
  const title = document.title?.trim();
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const base = baseHref ? absolute(baseHref, url) : url;
  for (const el of Array.from(document.querySelectorAll(CHROME))) el.remove();
  for (const a of Array.from(document.querySelectorAll('a[href]'))) a.setAttribute('href', absolute(a.getAttribute('href')!, base));
  for (const img of Array.from(document.querySelectorAll('img[src]'))) img.setAttribute('src', absolute(img.getAttribute('src')!, base));
  const table = document.querySelector('table');
  if (table) giveRows(table);
  const td = turndown();
  if (selector) {
    let parts: Element[];
    try {
      parts = Array.from(document.querySelectorAll(selector));
    } catch (e) {
      throw new Error(`the selector ${JSON.stringify(selector)} is not valid CSS (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    // turndown converts what is inside the node it gets: the matches go into one box, so each is kept whole.
    const box = document.createElement('div');
    for (const p of parts) box.appendChild(p.cloneNode(true));
    return td.turndown(inPlace(box));
  }
  const root = document.body ?? document.documentElement;
  const body = root ? td.turndown(inPlace(root)) : '';
  return title && !/^# /m.test(body) ? `# ${title}\n\n${body}` : body;
}
