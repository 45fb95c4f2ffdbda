// What each message contributes when several are merged into one (model §11).

import { JsonObject, isJsonObject, setKey } from '../base/json';
import { Message } from './dialog';
import { aiRes } from './outputs';
import { contentDirectives, directives, isMagic, partitionDirectives } from './directives';

/** One message's contribution to a merge into a `targetType` message. Fences are always three backticks. */
export function mergeContent(m: Message, targetType: string): string {
  if (targetType === 'code') return m.content;
  if (m.msgType === 'prompt') return `## AI Prompt\n${m.content}\n## AI Response\n${aiRes(m)}`;
  if (m.msgType === 'code') return '```python\n' + m.content + '\n```';
  if (m.msgType === 'raw') return '```plaintext\n' + m.content + '\n```';
  return m.content;
}

function setOnce(o: JsonObject, k: string, v: JsonObject[string]): void {
  if (!Object.prototype.hasOwnProperty.call(o, k)) setKey(o, k, v);
}

/** First value wins per key; `nbdev` dicts merge one level deeper, also first-wins. */
export function mergeMetas(metas: readonly (JsonObject | null | undefined)[]): JsonObject {
  const res: JsonObject = {};
  const nbd: JsonObject = {};
  for (const meta of metas) {
    for (const [k, v] of Object.entries(meta ?? {})) {
      if (k === 'nbdev' && isJsonObject(v)) for (const [dk, dv] of Object.entries(v)) setOnce(nbd, dk, dv);
      else setOnce(res, k, v);
    }
  }
  if (Object.keys(nbd).length) res.nbdev = nbd;
  return res;
}

/**
 * The `[content, meta]` of merging `msgs` (`srcs`: their rendered contributions, default the contents).
 * Later sources lose their leading directive block (magics stay); their directives move into the merged
 * metadata unless the first source already states them as comments.
 */
export function mergeParts(msgs: readonly Message[], srcs?: readonly string[]): [string, JsonObject] {
  const sources = srcs ?? msgs.map((m) => m.content);
  const parts = sources.map((s, i) => {
    if (i === 0) return s;
    const [block, rest] = partitionDirectives(s);
    return [...block.filter(isMagic), ...rest].join('');
  });
  const meta = mergeMetas(
    msgs.map((m) => {
      const nb: JsonObject = {};
      for (const [k, v] of Object.entries(directives(m))) setOnce(nb, k, v || 'true');
      return { ...m.meta, nbdev: nb };
    }),
  );
  const first = sources.length ? contentDirectives(sources[0]) : {};
  const nbd: JsonObject = {};
  for (const [k, v] of Object.entries(isJsonObject(meta.nbdev) ? meta.nbdev : {})) {
    if (!Object.prototype.hasOwnProperty.call(first, k)) setOnce(nbd, k, v);
  }
  if (Object.keys(nbd).length) meta.nbdev = nbd;
  else delete meta.nbdev;
  return [parts.join('\n\n'), meta];
}
