// A reply made safe to hand to a markdown renderer. Replies come from a dialog, so they are untrusted:
// VS Code's notebook markdown renderer lets some HTML through (an `<iframe>` loads, a `javascript:`
// link stays a link). Display only: the stored reply is never changed, so nothing a user wrote is lost.
//
// Outside code (fences and inline code spans, which render as text anyway), the opening `<` of every
// tag that could run or load something is escaped so the tag shows as text, and script URLs in
// markdown links lose their scheme.

/** Tags that run code, embed documents or change how the page loads, whatever their attributes. */
const BLOCKED_TAGS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'base', 'meta', 'link', 'style', 'svg', 'math', 'template']);
/** Attributes of an otherwise harmless tag that make it run code. */
const ACTIVE_ATTR = /\son[a-z]+\s*=|(?:javascript|vbscript)\s*:|data\s*:\s*text\/html/i;
const TAG_NAME = /^<\/?([a-zA-Z][a-zA-Z0-9-]*)/;
const SCRIPT_LINK = /(\]\(\s*<?|^ {0,3}\[[^\]\n]+\]:[ \t]*<?)\s*(?:javascript|vbscript)\s*:/gim;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Marks the characters inside code: fenced blocks and inline code spans (backtick runs closed by an equal run). */
function codeMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  let fence: string | null = null;
  let pos = 0;
  for (const line of text.split('\n')) {
    const end = pos + line.length;
    const m = FENCE.exec(line);
    if (fence) {
      mask.fill(1, pos, end);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && !line.slice(m[0].length).trim()) fence = null;
    } else if (m && !(m[1][0] === '`' && line.slice(m[0].length).includes('`'))) {
      fence = m[1];
      mask.fill(1, pos, end);
    } else {
      for (let i = line.indexOf('`'); i >= 0; ) {
        let j = i;
        while (line[j] === '`') j++;
        const run = j - i;
        let k = line.indexOf('`', j);
        // The closing run must have exactly the opener's length.
        while (k >= 0) {
          let e = k;
          while (line[e] === '`') e++;
          if (e - k === run) break;
          k = line.indexOf('`', e);
        }
        if (k < 0) {
          i = line.indexOf('`', j);
          continue;
        }
        mask.fill(1, pos + i, pos + k + run);
        i = line.indexOf('`', k + run);
      }
    }
    pos = end + 1;
  }
  return mask;
}

/** The reply as it is shown: dangerous HTML outside code turned into text, script links disarmed. */
export function safeReplyMarkdown(reply: string): string {
  if (!/[<:]/.test(reply)) return reply;
  const code = codeMask(reply);
  const cut = new Set<number>();
  for (let i = reply.indexOf('<'); i >= 0; i = reply.indexOf('<', i + 1)) {
    if (code[i]) continue;
    const name = TAG_NAME.exec(reply.slice(i, i + 40))?.[1]?.toLowerCase();
    if (!name) continue;
    const end = reply.indexOf('>', i);
    if (BLOCKED_TAGS.has(name) || ACTIVE_ATTR.test(reply.slice(i, end < 0 ? reply.length : end + 1))) cut.add(i);
  }
  let out = '';
  let from = 0;
  for (const m of reply.matchAll(SCRIPT_LINK)) {
    if (!code[m.index]) cut.add(m.index + m[1].length);
  }
  for (const i of [...cut].sort((a, b) => a - b)) {
    out += reply.slice(from, i) + (reply[i] === '<' ? '&lt;' : '#blocked:');
    from = reply[i] === '<' ? i + 1 : i;
  }
  return out + reply.slice(from);
}
