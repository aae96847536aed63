export async function run(_args: string[]): Promise<void> {
  throw new Error('the kv benchmark is not written yet');
}
