// Markdown to a sanitised DOM fragment: markdown-it, then DOMPurify with policy.ts. The reply renderer
// and the share preview (the page readers get, and Export as HTML) use this one function.

import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import type { ReplyAttachments } from '../shared/replyOutput';
import { REPLY_ATTRS, REPLY_TAGS, REPLY_URI, replyAttribute } from './policy';

/** A renderer for window `win`: markdown (and `attachment:` images from `attachments`) as a sanitised fragment. */
export function markdownSanitiser(win: Window & typeof globalThis): (text: string, attachments?: ReplyAttachments) => DocumentFragment {
  const markdown = new MarkdownIt({ html: true, linkify: false });
  const purify = DOMPurify(win);
  let current: ReplyAttachments | undefined;
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const kept = replyAttribute(node.nodeName.toLowerCase(), data.attrName, data.attrValue, current);
    if (kept === null) data.keepAttr = false;
    else data.attrValue = kept;
  });
  return (text, attachments) => {
    current = attachments;
    try {
      return purify.sanitize(markdown.render(text), {
        ALLOWED_TAGS: REPLY_TAGS,
        ALLOWED_ATTR: REPLY_ATTRS,
        ALLOWED_URI_REGEXP: REPLY_URI,
        ALLOW_DATA_ATTR: false,
        ALLOW_ARIA_ATTR: false,
        RETURN_DOM_FRAGMENT: true,
      });
    } finally {
      current = undefined;
    }
  };
}
