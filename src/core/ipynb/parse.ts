// Parsing a notebook fast: the native JSON.parse plus a light scan for what it cannot give.
//
// JSON.parse is several times faster than the number-preserving parseJson, but it loses `1.0` vs `1`
// and big integers, and it has no positions. The scan skips strings with indexOf, records the span of
// every cell object in the top-level `cells` array and looks at each number lexeme; only when one of
// them needs a tag, a key needs escaping, the nesting is too deep or the text is not plain JSON does
// parsing fall back to parseJson.

import { Json, JsonObject, MAX_JSON_DEPTH, NUMBER_RE, isJsonObject, needsTag, parseJson } from '../base/json';

export interface ParsedNotebook {
  value: Json;
  /** [start, end) pairs, flat, of the object cells of the top-level `cells` array, in order. */
  spans: number[];
}

/** Cell spans (flat start/end pairs), or null when JSON.parse would not read the text as parseJson does. */
function scan(text: string): number[] | null {
  const n = text.length;
  let spans: number[] = [];
  let depth = 0;
  let inCells = false;
  let lastKey = '';
  let cellStart = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c <= 32 || c === 44 || c === 58) i++; // whitespace , : (most of what lies between strings)
    else if (c === 34) {
      if (text.charCodeAt(i + 1) === 36 && text.startsWith('$dlg:', i + 1)) return null; // maybe a key to escape
      let q = text.indexOf('"', i + 1);
      for (;;) {
        if (q < 0) return spans; // unterminated: JSON.parse will report it
        let b = q - 1;
        while (text.charCodeAt(b) === 92) b--;
        if ((q - 1 - b) % 2 === 0) break;
        q = text.indexOf('"', q + 1);
      }
      if (depth === 1) lastKey = text.slice(i + 1, q);
      i = q + 1;
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) return null; // parseJson says where
      if (depth === 2) {
        inCells = c === 91 && lastKey === 'cells';
        if (inCells) spans = [];
      } else if (depth === 3 && inCells && c === 123) cellStart = i;
      i++;
    } else if (c === 125 || c === 93) {
      if (depth === 3 && inCells && c === 125) spans.push(cellStart, i + 1);
      depth--;
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER_RE.lastIndex = i;
      const m = NUMBER_RE.exec(text);
      if (!m) return null;
      if (needsTag(m[0], m[1], m[2])) return null;
      i += m[0].length;
    } else if (c === 78 || c === 73) return null; // NaN / Infinity: not JSON.parse's
    else i++;
  }
  return spans;
}

function objectCells(value: Json): JsonObject[] {
  const cells = isJsonObject(value) ? value.cells : undefined;
  return Array.isArray(cells) ? cells.filter(isJsonObject) : [];
}

export function parseNotebook(text: string): ParsedNotebook {
  const spans = scan(text);
  if (spans) {
    let value: Json | undefined;
    try {
      value = JSON.parse(text) as Json;
    } catch {
      // parseJson below gives the error with its line and column.
    }
    if (value !== undefined && objectCells(value).length * 2 === spans.length) return { value, spans };
  }
  const r = parseJson(text, 2);
  const out: number[] = [];
  for (const c of objectCells(r.value)) out.push(...r.spans.get(c)!);
  return { value: r.value, spans: out };
}
