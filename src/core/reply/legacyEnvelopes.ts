// Finding the legacy `<details>` / `:::` envelopes (reply-format §10) in linear time.
//
// The reference's patterns, as regexes, would be (multiline):
//   ^<details class='tool-usage-details'( markdown='1')?>\n*(<summary>[\s\S]*?</summary>\n*)?```json\n+BODY\n+```\n+</details>
//   ^(:{3,}) {.details .tool-usage-details}\n*(## [^\n]*\n*)?```json\n+BODY\n+```\n+\1$
//   ^<details class='token-usage-details'( markdown='1')?>\n*<summary>(SUMMARY)</summary>\n*`(DETAIL)`\n*</details>\n?
// with lazy BODY and SUMMARY. A regex engine retries the lazy part up to the end of the text from every
// opening that never closes, so a reply of unclosed openings takes quadratic time. Here each opening
// looks its closing up among closings found once, in one pass; the matches are the regexes' own.

export interface Envelope {
  start: number;
  end: number;
  /** The JSON between the fences (tool envelopes). */
  body: string;
}

export interface TokenEnvelope {
  start: number;
  end: number;
  summary: string;
  detail: string;
}

interface Hit {
  start: number;
  end: number;
  /** Length of the closing colon run (div closings). */
  run: number;
}

const DETAILS_OPEN = /^<details class='tool-usage-details'(?: markdown='1')?>/gm;
const SUMMARY_TO_JSON = /<\/summary>\n*```json\n/g;
const DETAILS_CLOSE = /(?<!\n)\n+```\n+<\/details>/g;
const DIV_OPEN = /^(:{3,}) \{\.details \.tool-usage-details\}/gm;
const DIV_CLOSE = /(?<!\n)\n+```\n+(:{3,})$/gm;
const TOKEN_OPEN = /^<details class='token-usage-details'(?: markdown='1')?>/gm;
const TOKEN_REST = /<\/summary>\n*`([^`\n]*)`\n*<\/details>\n?/g;

/** Every match of a global regex (these never overlap: each starts where no earlier one can reach). */
function hits(text: string, re: RegExp): Hit[] {
  const out: Hit[] = [];
  for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length, run: m[1]?.length ?? 0 });
  return out;
}

/** The first hit starting at or after `at` (hits sorted by start). */
function firstFrom(list: Hit[], at: number): Hit | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].start < at) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

function skipNewlines(text: string, i: number): number {
  while (text.charCodeAt(i) === 10) i++;
  return i;
}

/** Where the body starts when ```json and a line break stand at `i`, else -1. */
function jsonBody(text: string, i: number): number {
  return text.startsWith('```json\n', i) ? skipNewlines(text, i + 7) : -1;
}

/** `<details class='tool-usage-details'>` envelopes, in order. */
export function detailsEnvelopes(text: string): Envelope[] {
  const out: Envelope[] = [];
  let summaries: Hit[] | undefined;
  let closes: Hit[] | undefined;
  let after = 0;
  for (const m of text.matchAll(DETAILS_OPEN)) {
    if (m.index < after) continue;
    const q = skipNewlines(text, m.index + m[0].length);
    let body = -1;
    if (text.startsWith('<summary>', q)) {
      const s = firstFrom((summaries ??= hits(text, SUMMARY_TO_JSON)), q + 9);
      if (s) body = skipNewlines(text, s.end);
    } else body = jsonBody(text, q);
    if (body < 0) continue;
    const c = firstFrom((closes ??= hits(text, DETAILS_CLOSE)), body);
    if (!c) continue;
    out.push({ start: m.index, end: c.end, body: text.slice(body, c.start) });
    after = c.end;
  }
  return out;
}

/** The never-released `::: {.details .tool-usage-details}` envelopes, in order. */
export function divEnvelopes(text: string): Envelope[] {
  const out: Envelope[] = [];
  let byRun: Map<number, Hit[]> | undefined;
  const closeFrom = (at: number, run: number): Hit | undefined => {
    if (!byRun) {
      byRun = new Map();
      for (const h of hits(text, DIV_CLOSE)) {
        const l = byRun.get(h.run);
        if (l) l.push(h);
        else byRun.set(h.run, [h]);
      }
    }
    return firstFrom(byRun.get(run) ?? [], at);
  };
  let after = 0;
  for (const m of text.matchAll(DIV_OPEN)) {
    if (m.index < after) continue;
    const run = m[1].length;
    const q = skipNewlines(text, m.index + m[0].length);
    // The regex's choices in the order it tries them: after a `## ` line; ```json ending that line
    // (`[^\n]*` giving characters back); right at q.
    const bodies: number[] = [];
    if (text.startsWith('## ', q)) {
      let eol = text.indexOf('\n', q);
      if (eol < 0) eol = text.length;
      bodies.push(jsonBody(text, skipNewlines(text, eol)));
      if (eol < text.length && eol - 7 >= q + 3 && text.startsWith('```json', eol - 7)) bodies.push(skipNewlines(text, eol));
    } else bodies.push(jsonBody(text, q));
    for (const body of bodies) {
      const c = body < 0 ? undefined : closeFrom(body, run);
      if (!c) continue;
      out.push({ start: m.index, end: c.end, body: text.slice(body, c.start) });
      after = c.end;
      break;
    }
  }
  return out;
}

/** `<details class='token-usage-details'>` envelopes, in order. */
export function tokenEnvelopes(text: string): TokenEnvelope[] {
  const out: TokenEnvelope[] = [];
  // The summary's end, searched from monotonically growing offsets: a found one serves every later
  // opening before it, so the text is scanned once. (These matches can overlap, so no hit list.)
  let found: RegExpExecArray | null = null;
  let searched = -1;
  let after = 0;
  for (const m of text.matchAll(TOKEN_OPEN)) {
    if (m.index < after) continue;
    const q = skipNewlines(text, m.index + m[0].length);
    if (!text.startsWith('<summary>', q)) continue;
    const from = q + 9;
    if (searched < 0 || (found !== null && found.index < from)) {
      TOKEN_REST.lastIndex = from;
      found = TOKEN_REST.exec(text);
      searched = from;
    }
    if (!found) break;
    out.push({ start: m.index, end: found.index + found[0].length, summary: text.slice(from, found.index), detail: found[1] });
    after = found.index + found[0].length;
  }
  return out;
}
