// Sharing a dialog: what a reader gets (the page and the trimmed dialog), what is left out, what looks secret.
export * from './select';
export * from './page';
export * from './secrets';
export * from './url';
