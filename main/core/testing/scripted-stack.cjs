// A stand-in stack process for supervisor tests: behaves as SCRIPTED_STACK_MODE says, so tests can
// reproduce what the real stack rarely does on demand (crash after ready, never get ready, fail at start).
const mode = process.env.SCRIPTED_STACK_MODE ?? 'ready';
const args = process.argv.slice(2);
console.error(`scripted stack starting with ${args.join(' ')}`);
if (mode === 'fail') {
  console.error('stack: listen EADDRINUSE: address already in use 127.0.0.1:8080');
  process.exit(3);
}
if (mode === 'ready' || mode === 'crash-after-ready') {
  const line = {
    ready: true,
    messages: {
      url: 'http://127.0.0.1:18080',
      token: 'tok-msg-123456789',
      currentSigningKey: 'sig_current_abcdef',
      nextSigningKey: 'sig_next_abcdef',
    },
    kv: process.env.SCRIPTED_STACK_KV_ERROR
      ? { error: process.env.SCRIPTED_STACK_KV_ERROR }
      : { url: 'http://127.0.0.1:18079', token: 'tok-kv-123456789', readOnlyToken: 'tok-kvro-123456789' },
    dataDir: args[args.indexOf('--data-dir') + 1],
  };
  setTimeout(() => console.log(JSON.stringify(line)), 50);
}
if (mode === 'log-burst') {
  // One write: the lines reach the supervisor together, as a burst of log output does.
  process.stderr.write(`${Array.from({ length: 500 }, (_, i) => `warn line ${i}`).join('\n')}\n`);
}
if (mode === 'crash-after-ready') setTimeout(() => process.exit(9), 300);
process.on('SIGTERM', () => {
  console.error('stopping cleanly');
  process.exit(0);
});
setInterval(() => {}, 1000);
