// Foundations every other folder stands on: number-preserving JSON, digests and base64, terminal-screen semantics, image headers.
export * from './json';
export * from './hashes';
export * from './base64';
export * from './ansi';
export * from './imageSize';
