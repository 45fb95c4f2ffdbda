// `dlg`: the command line over the core library.
console.error('dlg: not implemented yet');
process.exit(2);
