// The section outline a tree view or panel shows.
export * from './tree';
