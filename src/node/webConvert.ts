// The HTML → Markdown conversion of read_url as its own lazy bundle (dist/lazy/web.js): mdream and
// linkedom (for a selector) are loaded on the first page read, not at activation.
export { htmlToMarkdown } from '../extension/web/htmlMarkdown';
