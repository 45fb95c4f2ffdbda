// Forks of a dialog: making one, the lineage it records, the family tree, the seed's condensed views.
export * from './paths';
export * from './lineage';
export * from './fork';
export * from './overview';
