// What in a shared dialog looks secret: secretlint's recommended rules (a maintained rule set: cloud,
// model-provider and GitHub keys, private keys, tokens in URLs …) over every text a reader gets, plus the
// secrets this extension holds itself (core/share findKnownSecrets). One lint of all texts joined, so a
// 2,000-message dialog costs one pass, mapped back to the message, part and line.

import { findKnownSecrets, lineAt, maskSecret, SecretHit, ShareText } from '../../core/share';

export interface KnownSecret {
  name: string;
  value: string;
}


/** "found Anthropic Claude API key: sk-ant-…" → "Anthropic Claude API key" (the finding itself never shown whole). */
function what(message: string, ruleId: string): string {
  const m = /^found\s+(.*?):/i.exec(message);
  return m ? m[1] : ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** Everything that looks secret in `texts`, in message order. */
export async function scanSecrets(texts: readonly ShareText[], known: readonly KnownSecret[] = []): Promise<SecretHit[]> {
  const starts: number[] = [];
  let content = '';
  for (const t of texts) {
    starts.push(content.length);
    content += t.text + '\n';
  }
  const hits = findKnownSecrets(texts, known);
  if (content) {
    // Loaded on first use (dist/lazy on the desktop): activation does not pay for the rule set.
    const { lintSource } = await import('@secretlint/core');
    const { creator } = await import('@secretlint/secretlint-rule-preset-recommend');
    const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
    const r = await lintSource({ source: { content, filePath: 'dialog.md', ext: '.md', contentType: 'text' }, options: { config, maskSecrets: false } });
    for (const m of r.messages) {
      const at = m.range[0];
      // The text holding offset `at`: the last one starting at or before it.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      const t = texts[lo];
      const found = content.slice(m.range[0], m.range[1]);
      if (hits.some((h) => h.id === t.id && h.part === t.part && known.some((k) => found.includes(k.value)))) continue;
      hits.push({ id: t.id, index: t.index, part: t.part, line: lineAt(t.text, at - starts[lo]), what: what(m.message, m.ruleId), masked: maskSecret(found) });
    }
  }
  return hits.sort((a, b) => a.index - b.index || a.line - b.line);
}
