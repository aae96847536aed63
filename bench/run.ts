// One entry point for every benchmark: `npm run bench -- <name> [options]`.
// Each benchmark measures its own baseline in the same run and prints ratios; none of them is a test.
type Bench = { run(args: string[]): Promise<void> };

const benches: Record<string, () => Promise<Bench>> = {
  startup: () => import('./startup'),
  burst: () => import('./burst'),
  messages: () => import('./messages'),
  schedules: () => import('./schedules'),
  workflows: () => import('./workflows'),
  kv: () => import('./kv'),
  ui: () => import('./ui'),
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const load = name ? benches[name] : undefined;
  if (!load) {
    console.error(`usage: npm run bench -- <${Object.keys(benches).join('|')}> [options]`);
    process.exit(2);
  }
  await (await load()).run(args);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
