export async function run(_args: string[]): Promise<void> {
  throw new Error('the startup benchmark is not written yet');
}
