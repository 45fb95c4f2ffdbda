// Documents made from a dialog for people to read: markdown.
export * from './markdown';
