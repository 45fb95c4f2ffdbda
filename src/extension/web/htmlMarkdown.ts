// A web page as Markdown for read_url (issue 52): mdream's JS engine writes Markdown as it tokenizes the
// HTML, with no DOM in between (pure JS, so the same code runs in the Node and the web-worker extension
// hosts), GFM tables and fenced code with their language included, links and images made absolute against
// the page's address (or its <base>). The page's chrome is left out as it streams by (scripts, styles,
// navigation, hidden elements) by a hook of ours. Only a `selector` needs a DOM: linkedom parses the page and picks the
// matches, which are then written the same way. Why these and not turndown or @mozilla/readability:
// docs/web.md. Desktop loads it on the first read (dist/lazy/web.js, node/webConvert.ts).

import { htmlToMarkdown as mdream, type ElementNode, type TextNode, type TransformPlugin } from '@mdream/js';
import { parseHTML } from 'linkedom';

/** What no reader of the page's text needs: code, styles, embedded objects, the site's navigation. */
const CHROME_TAGS = new Set(['title', 'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'link', 'meta', 'nav']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search']);
const INVISIBLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * Chrome: the tags above, the page's own header and footer (`body > header`, `body > footer`), ARIA's
 * navigation roles, and what is hidden (`hidden`, `aria-hidden`, `display: none`, `visibility: hidden`).
 * One look per element here rather than mdream's `filter` plugin, whose selectors took a third of the
 * conversion (bench/web.ts); an inline image as data too, when it has no alt text to say instead.
 */
function isChrome(el: ElementNode): boolean {
  const a = el.attributes;
  return (
    CHROME_TAGS.has(el.name) ||
    ((el.name === 'header' || el.name === 'footer') && el.parent?.name === 'body') ||
    a.hidden !== undefined ||
    a['aria-hidden'] === 'true' ||
    (a.role !== undefined && CHROME_ROLES.has(a.role)) ||
    (a.style !== undefined && INVISIBLE.test(a.style)) ||
    (dataImage(el) && !a.alt)
  );
}

/** An inline image as data: megabytes of base64 to the model, which its alt text says as much as. */
function dataImage(el: ElementNode): boolean {
  return el.name === 'img' && /^data:/i.test(el.attributes.src ?? '');
}

/**
 * Leaves the page's chrome out as it streams by: mdream writes nothing of an element marked excluded,
 * and marks its children so as they come. The title's text goes to `onTitle`. mdream makes every link
 * absolute against `base` but one to a place in the page (`#id`), made absolute here too.
 */
function pageChrome(base: string, onTitle: (text: string) => void): TransformPlugin {
  return {
    beforeNodeProcess({ type, node }) {
      if (node.type !== 1) {
        if (node.parent?.name === 'title') onTitle((node as TextNode).value);
        return;
      }
      if (type !== 0 || node.excludedFromMarkdown) return;
      const el = node as ElementNode;
      if (isChrome(el)) el.excludedFromMarkdown = true;
      else if (el.name === 'a' && el.attributes.href?.startsWith('#')) el.attributes.href = absolute(el.attributes.href, base);
    },
    onNodeEnter: (el) => (dataImage(el) ? `[image: ${el.attributes.alt}]` : undefined),
  };
}

/** `href` against `base`; `base` when it is not a URL. */
function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return base;
  }
}

/** `html` as Markdown, links against `base`; the page's title, if it has one, goes to `onTitle`. */
function convert(html: string, base: string, onTitle: (text: string) => void = () => {}): string {
  return mdream(html, { origin: base, hooks: [pageChrome(base, onTitle)] }).trim();
}

/** The `<base href>` of the page's head, if it says one (read before the conversion, which needs it). */
function baseOf(html: string, url: string): string {
  const head = html.slice(0, Math.max(0, html.search(/<body[\s>]/i)) || 16384);
  const m = /<base\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(head);
  const href = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  return href ? absolute(href, url) : url;
}

/** `html` (the page at `url`) as Markdown: the body without its chrome, or only what `selector` matches. */
export function htmlToMarkdown(html: string, url: string, selector?: string): string {
  const base = baseOf(html, url);
  if (selector) {
    // linkedom builds a document only around an <html> element: a fragment is wrapped, as a browser would.
    const { document } = parseHTML(/<html[\s>]/i.test(html.slice(0, 4096)) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
    let parts: Element[];
    try {
      parts = Array.from(document.querySelectorAll(selector));
    } catch (e) {
      throw new Error(`the selector ${JSON.stringify(selector)} is not valid CSS (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    return convert(parts.map((p) => p.outerHTML).join('\n'), base);
  }
  let title = '';
  const body = convert(html, base, (t) => (title += t));
  title = title.trim();
  return title && !/^# /m.test(body) ? `# ${title}\n\n${body}` : body;
}
