// Solveit's `w`: the fenced code blocks of a reply (or a note) as the code cells they ask to become.
// Fences are found by markdown-it (CommonMark: backtick and tilde fences, fences inside lists and
// quotes); a reply's machinery is not code: think blocks, and tool calls in either wire form
// (`json {.tool}` / `json {.usage}` fences, legacy `<details>` envelopes), are left out.

import MarkdownIt from 'markdown-it';
import { dropTrailingNewlines, removeThink } from './blocks';
import { legacyToolBlocks } from './legacyDetails';

export interface CodeBlock {
  /** The fence's language word, lower-cased ('' when the fence names none). */
  lang: string;
  /** The block's text, without the fence lines and the trailing line breaks. */
  code: string;
}

const markdown = new MarkdownIt({ html: true });

/** `text` with its legacy tool envelopes cut out (their JSON is no code to extract). */
function withoutLegacyTools(text: string): string {
  let out = '';
  let at = 0;
  for (const b of legacyToolBlocks(text)) {
    if (b.start < at) continue;
    out += text.slice(at, b.start);
    at = b.end;
  }
  return out + text.slice(at);
}

/** The fenced code blocks of markdown `text`, in order, empty ones and reply machinery left out. */
export function codeBlocks(text: string): CodeBlock[] {
  const out: CodeBlock[] = [];
  for (const t of markdown.parse(withoutLegacyTools(removeThink(text)), {})) {
    if (t.type !== 'fence' || /\{\s*\.(tool|usage)\s*\}/.test(t.info)) continue;
    const code = dropTrailingNewlines(t.content);
    if (code.trim()) out.push({ lang: (/^[^\s{]*/.exec(t.info.trim())?.[0] ?? '').toLowerCase(), code });
  }
  return out;
}

/** Fence words -> VS Code language ids. */
const LANG_IDS: Record<string, string> = {
  py: 'python', python3: 'python', ipython: 'python', ipython3: 'python', pycon: 'python',
  sh: 'shellscript', bash: 'shellscript', shell: 'shellscript', zsh: 'shellscript', console: 'shellscript',
  js: 'javascript', node: 'javascript', ts: 'typescript', jl: 'julia',
};

/** Languages an IPython kernel runs through a cell magic, and the magic line. */
const IPYTHON_MAGICS: Record<string, string> = { shellscript: '%%bash', javascript: '%%javascript', html: '%%html' };

/** The VS Code language id a fence word stands for ('' for none). */
function fenceLanguage(lang: string): string {
  return LANG_IDS[lang] ?? lang;
}

/**
 * The sources of the code cells the blocks become in a dialog whose code runs in `dialogLang` (its
 * kernel runs that language only, whatever a cell's language id says): a block in the dialog's language
 * stays as it is; in a Python dialog (an IPython kernel) shell, JavaScript and HTML blocks are opened by
 * the cell magic that runs them (`%%bash`…), as one writes them in Solveit; any other block is kept
 * unchanged, in the dialog's language.
 */
export function codeSources(blocks: readonly CodeBlock[], dialogLang: string): string[] {
  return blocks.map((b) => {
    const magic = dialogLang === 'python' ? IPYTHON_MAGICS[fenceLanguage(b.lang)] : undefined;
    return magic && !b.code.startsWith('%%') ? `${magic}\n${b.code}` : b.code;
  });
}
