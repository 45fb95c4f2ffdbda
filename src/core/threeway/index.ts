// Three-way merge of dialogs by message id: for outside changes merged into the open dialog, and for git.
export * from './match';
export * from './conflict';
export * from './merge';
export * from './changed';
export * from './nearest';
export * from './unsaved';
