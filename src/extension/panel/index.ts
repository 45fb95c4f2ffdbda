// The Dialog panel: a webview of sections, the history preview and the exploded reply.
export { registerPanel } from './panel';
