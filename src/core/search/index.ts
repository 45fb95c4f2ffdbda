// Message search across dialogs: the parts a dialog is indexed as, the query language, snippets, and the index over any SQLite with FTS5.
export * from './parts';
export * from './query';
export * from './snippet';
export * from './searchIndex';
