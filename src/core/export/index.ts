// Documents made from a dialog for people to read: markdown, and the text form diffs show.
export * from './markdown';
export * from './show';
