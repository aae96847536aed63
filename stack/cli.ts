// Placeholder until the local stack (issue 3) lands: the process entry point `npm run stack`.
console.error('local stack: not implemented yet');
process.exit(1);
