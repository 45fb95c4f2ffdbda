// Answering a prompt, the pure part: what is sent (context policy), when to retry, what it cost, and the
// streamed answer as a reply. The providers that talk to models live in src/extension/answer.
export * from './contextPolicy';
export * from './retry';
export * from './cost';
export * from './replyStream';
export * from './planPreview';
export * from './price';
export * from './batch';
export * from './mode';
export * from './inline';
